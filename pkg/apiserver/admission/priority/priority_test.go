package priority

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/scheduling/priorityclass"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// env is the plugin in a chain, over a real etcd-backed priorityclasses
// store holding the given classes.
type env struct {
	store *registry.Store
	chain *admission.Chain
}

func newEnv(t *testing.T, classes ...*schedulingv1.PriorityClass) *env {
	t.Helper()
	c, prefix := etcdtest.Client(t)
	store := registry.NewStore(priorityclass.Resource(), registry.Config{Storage: etcd3.New(zap.NewNop(), c, prometheus.NewRegistry()), Prefix: prefix})
	for _, pc := range classes {
		if _, err := store.Create(context.Background(), pc, false); err != nil {
			t.Fatalf("create class %s: %v", pc.Name, err)
		}
	}
	p, err := NewFromStore(zap.NewNop(), store)
	if err != nil {
		t.Fatal(err)
	}
	return &env{store: store, chain: admission.NewChain([]admission.Named{{Name: Name, Plugin: p}}, nil)}
}

func class(name string, value int32, globalDefault bool, policy ...corev1.PreemptionPolicy) *schedulingv1.PriorityClass {
	pc := &schedulingv1.PriorityClass{Value: value, GlobalDefault: globalDefault}
	pc.Name = name
	if len(policy) > 0 {
		pc.PreemptionPolicy = &policy[0]
	}
	return pc
}

func pod(ns, className string, priority *int32, policy *corev1.PreemptionPolicy) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name, p.Namespace = "p", ns
	p.Spec.PriorityClassName, p.Spec.Priority, p.Spec.PreemptionPolicy = className, priority, policy
	return p
}

func ptr[T any](v T) *T { return &v }

func podCreate(p *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"},
		Kind: meta.GroupVersionKind{Version: "v1", Kind: "Pod"}, Namespace: p.Namespace, Name: p.Name, Object: p}
}

func TestPodCreate(t *testing.T) {
	lower, never := corev1.PreemptLowerPriority, corev1.PreemptNever
	tests := []struct {
		name    string
		classes []*schedulingv1.PriorityClass
		pod     *corev1.Pod
		// wantClass, wantPriority and wantPolicy are the admitted pod's;
		// wantErr, when set, is the message of the 403 instead.
		wantClass    string
		wantPriority int32
		wantPolicy   corev1.PreemptionPolicy
		wantErr      string
	}{
		{name: "no class and no default", pod: pod("ns", "", nil, nil),
			wantPriority: 0, wantPolicy: lower},
		{name: "no class takes the global default", classes: []*schedulingv1.PriorityClass{class("def", 500, true, never), class("other", 7, false)},
			pod: pod("ns", "", nil, nil), wantClass: "def", wantPriority: 500, wantPolicy: never},
		{name: "two defaults after a race: the lower wins", classes: []*schedulingv1.PriorityClass{class("a", 500, true), class("b", 300, true)},
			pod: pod("ns", "", nil, nil), wantClass: "b", wantPriority: 300, wantPolicy: lower},
		{name: "named class", classes: []*schedulingv1.PriorityClass{class("high", 1000, false), class("def", 5, true)},
			pod: pod("ns", "high", nil, nil), wantClass: "high", wantPriority: 1000, wantPolicy: lower},
		{name: "named class with policy Never", classes: []*schedulingv1.PriorityClass{class("batch", -10, false, never)},
			pod: pod("ns", "batch", nil, nil), wantClass: "batch", wantPriority: -10, wantPolicy: never},
		{name: "unknown class", pod: pod("ns", "nope", nil, nil),
			wantErr: `pods "p" is forbidden: no PriorityClass with name nope was found`},
		{name: "the pod repeats the class's priority and policy", classes: []*schedulingv1.PriorityClass{class("high", 1000, false)},
			pod: pod("ns", "high", ptr[int32](1000), &lower), wantClass: "high", wantPriority: 1000, wantPolicy: lower},
		{name: "the pod sets another priority", classes: []*schedulingv1.PriorityClass{class("high", 1000, false)},
			pod:     pod("ns", "high", ptr[int32](5), nil),
			wantErr: `pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`},
		{name: "the pod sets a priority with no class", pod: pod("ns", "", ptr[int32](5), nil),
			wantErr: `pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`},
		{name: "the pod sets another policy", classes: []*schedulingv1.PriorityClass{class("high", 1000, false)},
			pod:     pod("ns", "high", nil, &never),
			wantErr: `pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name`},
		{name: "system class in platform-system", classes: []*schedulingv1.PriorityClass{&schedulingv1.SystemPriorityClasses()[0]},
			pod: pod("platform-system", "system-node-critical", nil, nil), wantClass: "system-node-critical", wantPriority: 2000001000, wantPolicy: lower},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.classes...)
			a := podCreate(tt.pod)
			err := e.chain.Admit(context.Background(), a)
			if tt.wantErr != "" {
				if !apierrors.IsForbidden(err) || err.Error() != tt.wantErr {
					t.Fatalf("error %v (%d), want 403 %q", err, apierrors.CodeForError(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := a.Object.(*corev1.Pod).Spec
			if s.PriorityClassName != tt.wantClass || s.Priority == nil || *s.Priority != tt.wantPriority ||
				s.PreemptionPolicy == nil || *s.PreemptionPolicy != tt.wantPolicy {
				t.Errorf("admitted class %q priority %v policy %v; want %q %d %s", s.PriorityClassName, s.Priority, s.PreemptionPolicy, tt.wantClass, tt.wantPriority, tt.wantPolicy)
			}
		})
	}
}

// TestPodUpdateKeepsPriority: an update that leaves out what create set
// keeps it; other pods' writes and subresources are not touched.
func TestPodUpdateKeepsPriority(t *testing.T) {
	e := newEnv(t)
	never := corev1.PreemptNever
	old := pod("ns", "high", ptr[int32](1000), &never)
	upd := pod("ns", "high", nil, nil)
	a := &admission.Attributes{Operation: admission.Update, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"},
		Namespace: "ns", Name: "p", Object: upd, OldObject: old}
	if err := e.chain.Admit(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if upd.Spec.Priority == nil || *upd.Spec.Priority != 1000 || upd.Spec.PreemptionPolicy == nil || *upd.Spec.PreemptionPolicy != never {
		t.Errorf("updated pod: priority %v policy %v", upd.Spec.Priority, upd.Spec.PreemptionPolicy)
	}

	// A binding, and a pod of another group, are left alone: the unknown
	// class would be refused if they were looked at.
	for _, a := range []*admission.Attributes{
		{Operation: admission.Create, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"}, Subresource: "binding", Name: "p", Object: &corev1.Binding{}},
		{Operation: admission.Create, Resource: meta.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "pods"}, Name: "p", Object: pod("ns", "nope", nil, nil)},
	} {
		if err := e.chain.Admit(context.Background(), a); err != nil {
			t.Errorf("%s/%s: %v", a.Resource, a.Subresource, err)
		}
	}
}

func classWrite(op admission.Operation, group string, pc, old *schedulingv1.PriorityClass) *admission.Attributes {
	a := &admission.Attributes{Operation: op, Resource: meta.GroupVersionResource{Group: group, Version: "v1", Resource: "priorityclasses"}}
	if pc != nil {
		a.Object, a.Name = pc, pc.Name
	}
	if old != nil {
		a.OldObject, a.Name = old, old.Name
	}
	return a
}

func TestPriorityClassWrites(t *testing.T) {
	const group = "scheduling.platform.io"
	node := schedulingv1.SystemPriorityClasses()[0]
	sysNode := &node
	sysNode.PreemptionPolicy = ptr(corev1.PreemptLowerPriority)
	described := *sysNode
	described.Description = "mine now"
	labelled := *sysNode
	labelled.Labels = map[string]string{"a": "b"}
	tests := []struct {
		name string
		a    *admission.Attributes
		// wantErr is the message of the 403, "" when the write is allowed.
		wantErr string
	}{
		{"a second default", classWrite(admission.Create, group, class("def2", 1, true), nil),
			`priorityclasses.scheduling.platform.io "def2" is forbidden: PriorityClass def is already marked as default. Only one default can exist`},
		{"a second default under the upstream group name", classWrite(admission.Create, "scheduling.k8s.io", class("def2", 1, true), nil),
			`priorityclasses.scheduling.k8s.io "def2" is forbidden: PriorityClass def is already marked as default. Only one default can exist`},
		{"a class made the default", classWrite(admission.Update, group, class("other", 3, true), class("other", 3, false)),
			`priorityclasses.scheduling.platform.io "other" is forbidden: PriorityClass def is already marked as default. Only one default can exist`},
		{"the default updated", classWrite(admission.Update, group, class("def", 1, true), class("def", 1, true)), ""},
		{"a class that is not the default", classWrite(admission.Create, group, class("new", 1, false), nil), ""},
		{"delete a user class", classWrite(admission.Delete, group, nil, class("other", 3, false)), ""},
		{"delete a system class", classWrite(admission.Delete, group, nil, sysNode),
			`priorityclasses.scheduling.platform.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted`},
		{"change a system class", classWrite(admission.Update, group, &described, sysNode),
			`priorityclasses.scheduling.platform.io "system-node-critical" is forbidden: this is a system priority class and cannot be changed`},
		{"label a system class", classWrite(admission.Update, group, &labelled, sysNode), ""},
	}
	e := newEnv(t, class("def", 1, true), class("other", 3, false))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := e.chain.Validate(context.Background(), tt.a)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || err.Error() != tt.wantErr {
				t.Fatalf("error %v (%d), want 403 %q", err, apierrors.CodeForError(err), tt.wantErr)
			}
		})
	}
	// With no default yet, a first one is allowed.
	if err := newEnv(t).chain.Validate(context.Background(), classWrite(admission.Create, group, class("first", 1, true), nil)); err != nil {
		t.Errorf("first default refused: %v", err)
	}
}

func TestNewFromStoreNeedsTheStore(t *testing.T) {
	if _, err := NewFromStore(zap.NewNop(), nil); err == nil {
		t.Error("built without a priorityclasses store")
	}
}
