package namespace

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/discovery"
	"platform.io/client/informer"
)

// fakeContent answers per resource name.
type fakeContent struct {
	mu      sync.Mutex // the loop empties resources in parallel
	remain  map[string]leftover
	fail    map[string]error
	deleted []string
}

func (f *fakeContent) deleteAll(_ context.Context, r discovery.Resource, ns string) error {
	if err := f.fail[r.Name]; err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted = append(f.deleted, r.Name)
	return nil
}

func (f *fakeContent) left(_ context.Context, r discovery.Resource, ns string) (leftover, error) {
	return f.remain[r.Name], nil
}

// fakeWriter records the status updates and finalizes.
type fakeWriter struct {
	statuses  []*corev1.Namespace
	finalized []corev1.FinalizerName
	calls     int
}

func (w *fakeWriter) updateStatus(_ context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	w.statuses = append(w.statuses, ns)
	return ns, nil
}

func (w *fakeWriter) finalize(_ context.Context, ns *corev1.Namespace) error {
	w.calls++
	w.finalized = ns.Spec.Finalizers
	return nil
}

func namespaceObj(deleting bool, finalizers ...corev1.FinalizerName) *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "ns"}}
	ns.Spec.Finalizers = finalizers
	ns.Status.Phase = corev1.NamespaceActive
	if deleting {
		ts := meta.NewTime(time.Unix(50, 0))
		ns.DeletionTimestamp = &ts
		ns.Status.Phase = corev1.NamespaceTerminating
	}
	return ns
}

func condition(t corev1.NamespaceConditionType, st corev1.ConditionStatus) string {
	return string(t) + "=" + string(st)
}

// reconcileCase is one namespace, what its resources hold, and the
// expected pass.
type reconcileCase struct {
	name       string
	ns         *corev1.Namespace
	content    fakeContent
	want       ctrl.Result
	wantErr    bool
	finalized  bool
	conditions []string // type=status of the last status written; nil for no write
	message    string   // of the ContentRemaining, ContentFailure or DiscoveryFailure condition written
	// failedGroup makes discovery of stable.example.com/v1 fail; apisDown
	// makes the whole discovery fail.
	failedGroup, apisDown bool
}

var allVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

// served is what discovery finds: the built-in resources, a custom
// namespaced resource, a custom cluster-scoped one and one that cannot be
// deleted.
func served() []discovery.Resource {
	var out []discovery.Resource
	for _, r := range client.Resources() {
		verbs := allVerbs
		if r.Name == "tokenreviews" || r.Name == "subjectaccessreviews" || r.Name == "localsubjectaccessreviews" {
			verbs = []string{"create"}
		}
		out = append(out, discovery.Resource{Resource: r, Verbs: verbs, Preferred: true})
	}
	custom := func(name, kind string, namespaced bool, verbs ...string) discovery.Resource {
		return discovery.Resource{Resource: client.Resource{Group: "stable.example.com", Version: "v1", Name: name, Kind: kind, Namespaced: namespaced},
			Verbs: verbs, Preferred: true}
	}
	return append(out, custom("crontabs", "CronTab", true, allVerbs...), custom("clusterthings", "ClusterThing", false, allVerbs...),
		custom("readonlythings", "ReadOnlyThing", true, "get", "list", "watch"))
}

// discoverFor returns the discovery of a case.
func discoverFor(tc *reconcileCase) func(context.Context) (discovery.Snapshot, error) {
	return func(context.Context) (discovery.Snapshot, error) {
		snap := discovery.Snapshot{Resources: served(), Failed: map[meta.GroupVersion]error{}}
		switch {
		case tc.apisDown:
			return discovery.Snapshot{}, errors.New("discovery: /apis: the server is currently unable to handle the request")
		case tc.failedGroup:
			snap.Failed[meta.GroupVersion{Group: "metrics.example.com", Version: "v1"}] = errors.New("service unavailable")
		}
		return snap, nil
	}
}

func reconcileCases() []reconcileCase {
	const hold = "example.com/hold"
	return []reconcileCase{{
		name: "active namespace: nothing", ns: namespaceObj(false, corev1.FinalizerPlatform),
	}, {
		name: "deleting without our finalizer: nothing", ns: namespaceObj(true, "example.com/other"),
	}, {
		name: "empty: finalized", ns: namespaceObj(true, corev1.FinalizerPlatform, "example.com/other"),
		finalized: true,
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionFalse),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
	}, {
		name: "pods terminating: wait their grace period", ns: namespaceObj(true, corev1.FinalizerPlatform),
		content: fakeContent{remain: map[string]leftover{"pods": {count: 2, graceSeconds: 30}}},
		want:    ctrl.Result{RequeueAfter: 30 * time.Second},
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionTrue),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
		message: "Some resources are remaining: pods. has 2 resource instances",
	}, {
		name: "finalizers hold content: back off", ns: namespaceObj(true, corev1.FinalizerPlatform),
		content: fakeContent{remain: map[string]leftover{
			"configmaps":  {count: 1, finalizers: map[string]int{hold: 1}},
			"deployments": {count: 3, finalizers: map[string]int{hold: 3}},
		}},
		want: ctrl.Result{Requeue: true},
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionTrue),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionTrue),
		},
		message: "Some resources are remaining: configmaps. has 1 resource instances, deployments.apps has 3 resource instances",
	}, {
		name: "a delete fails: error, condition", ns: namespaceObj(true, corev1.FinalizerPlatform),
		content: fakeContent{fail: map[string]error{"secrets": errors.New("delete collection of secrets: boom")}},
		wantErr: true,
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionTrue),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionFalse),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
		message: "Failed to delete all resource types, 1 remaining: delete collection of secrets: boom",
	}, {
		name: "custom objects remain: wait", ns: namespaceObj(true, corev1.FinalizerPlatform),
		content: fakeContent{remain: map[string]leftover{"crontabs": {count: 2}}},
		want:    ctrl.Result{Requeue: true},
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionTrue),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
		message: "Some resources are remaining: crontabs.stable.example.com has 2 resource instances",
	}, {
		name: "a group cannot be discovered: the rest deleted, not finalized", ns: namespaceObj(true, corev1.FinalizerPlatform),
		failedGroup: true, wantErr: true,
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionTrue),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionFalse),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
		message: "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.example.com/v1: service unavailable",
	}, {
		name: "discovery down: not finalized", ns: namespaceObj(true, corev1.FinalizerPlatform),
		apisDown: true, wantErr: true,
		conditions: []string{
			condition(corev1.NamespaceDeletionDiscoveryFailure, corev1.ConditionTrue),
			condition(corev1.NamespaceDeletionGVParsingFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceDeletionContentFailure, corev1.ConditionFalse),
			condition(corev1.NamespaceContentRemaining, corev1.ConditionFalse),
			condition(corev1.NamespaceFinalizersRemaining, corev1.ConditionFalse),
		},
		message: "discovery: /apis: the server is currently unable to handle the request",
	}}
}

func TestReconcile(t *testing.T) {
	tests := reconcileCases()
	for i := range tests {
		tc := &tests[i]
		t.Run(tc.name, func(t *testing.T) {
			store := informer.NewStore[*corev1.Namespace]()
			store.Add(tc.ns)
			w := &fakeWriter{}
			content := &fakeContent{remain: tc.content.remain, fail: tc.content.fail}
			r := &reconciler{lg: zap.NewNop(), lister: informer.NewLister(store, meta.GroupResource{Resource: "namespaces"}),
				discover: discoverFor(tc), content: content, write: w, now: func() time.Time { return time.Unix(60, 0) }}
			got, err := r.Reconcile(context.Background(), "ns")
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("Reconcile = %+v, %v; want %+v, error %v", got, err, tc.want, tc.wantErr)
			}
			if tc.finalized != (w.calls == 1) {
				t.Fatalf("finalize calls %d, want finalized %v", w.calls, tc.finalized)
			}
			if tc.finalized && (len(w.finalized) != 1 || w.finalized[0] != "example.com/other") {
				t.Errorf("finalized with %v", w.finalized)
			}
			if tc.conditions == nil {
				if len(w.statuses) > 0 || len(content.deleted) > 0 {
					t.Errorf("acted on a namespace it should leave: %d writes, deleted %v", len(w.statuses), content.deleted)
				}
				return
			}
			if want := wantDeleted(tc); !cmp.Equal(want, sorted(content.deleted), cmpopts.EquateEmpty()) {
				t.Errorf("deleted the content of %v, want %v", sorted(content.deleted), want)
			}
			last := w.statuses[len(w.statuses)-1]
			var gotConds []string
			for _, c := range last.Status.Conditions {
				gotConds = append(gotConds, condition(c.Type, c.Status))
				if c.Status == corev1.ConditionTrue && c.Type != corev1.NamespaceFinalizersRemaining && c.Message != tc.message {
					t.Errorf("%s message %q, want %q", c.Type, c.Message, tc.message)
				}
			}
			if diff := cmp.Diff(tc.conditions, gotConds); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
		})
	}
}

// wantDeleted is every served namespaced resource that can be listed and
// deleted (custom ones too), but those the case makes fail.
func wantDeleted(tc *reconcileCase) []string {
	if tc.apisDown {
		return nil
	}
	var out []string
	for _, r := range served() {
		if r.Namespaced && r.Supports("list", "delete") && tc.content.fail[r.Name] == nil && !slices.Contains(out, r.Name) {
			out = append(out, r.Name)
		}
	}
	return sorted(out)
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestDeletable(t *testing.T) {
	got := deletable(discovery.Snapshot{Resources: served()})
	var names []string
	for _, r := range got {
		names = append(names, r.Name)
	}
	for _, want := range []string{"pods", "configmaps", "deployments", "crontabs"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s not deletable: %v", want, names)
		}
	}
	for _, not := range []string{"namespaces", "nodes", "clusterthings", "readonlythings", "localsubjectaccessreviews"} {
		if slices.Contains(names, not) {
			t.Errorf("%s deletable: %v", not, names)
		}
	}
}

func TestMergeConditions(t *testing.T) {
	t0, t1 := meta.NewTime(time.Unix(10, 0)), meta.NewTime(time.Unix(20, 0))
	cur := []corev1.NamespaceCondition{
		{Type: corev1.NamespaceContentRemaining, Status: corev1.ConditionTrue, Reason: "SomeResourcesRemain", Message: "a", LastTransitionTime: t0},
		{Type: corev1.NamespaceFinalizersRemaining, Status: corev1.ConditionFalse, Reason: "ContentHasNoFinalizers", Message: "b", LastTransitionTime: t0},
	}
	want := []corev1.NamespaceCondition{
		{Type: corev1.NamespaceContentRemaining, Status: corev1.ConditionTrue, Reason: "SomeResourcesRemain", Message: "a2"},
		{Type: corev1.NamespaceFinalizersRemaining, Status: corev1.ConditionTrue, Reason: "SomeFinalizersRemain", Message: "c"},
		{Type: corev1.NamespaceDeletionContentFailure, Status: corev1.ConditionFalse, Reason: "ContentDeleted", Message: "d"},
	}
	got, changed := mergeConditions(cur, want, t1)
	if !changed {
		t.Fatal("no change reported")
	}
	times := []meta.Time{got[0].LastTransitionTime, got[1].LastTransitionTime, got[2].LastTransitionTime}
	if diff := cmp.Diff([]meta.Time{t0, t1, t1}, times); diff != "" {
		t.Errorf("transition times (-want +got):\n%s", diff)
	}
	if _, changed := mergeConditions(got, want, t1); changed {
		t.Error("merging the same conditions again reported a change")
	}
}

func TestOptions(t *testing.T) {
	o := NewOptions()
	if o.Workers != 10 || o.SyncPeriod != 5*time.Minute || len(o.Validate()) != 0 {
		t.Fatalf("defaults %+v: %v", o, o.Validate())
	}
	o.Workers, o.SyncPeriod = 0, 0
	if errs := o.Validate(); len(errs) != 2 {
		t.Fatalf("invalid options: %v", errs)
	}
}
