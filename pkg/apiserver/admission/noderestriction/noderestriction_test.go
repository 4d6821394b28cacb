package noderestriction

import (
	"context"
	"testing"

	authenticationv1 "platform.io/client/api/authentication/v1"
	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/component/authn"
)

// objects is a fixed set of objects by namespace/name.
type objects map[string]meta.Object

func (o objects) GetCached(_ context.Context, ns, name string) (meta.Object, error) {
	if obj, ok := o[ns+"/"+name]; ok {
		return obj, nil
	}
	return nil, apierrors.NewNotFound(meta.GroupResource{Resource: "things"}, name)
}

var (
	nodeA = &authn.User{Name: "system:node:a", Groups: []string{"system:nodes", "system:authenticated"}}
	admin = &authn.User{Name: "admin", Groups: []string{"system:masters"}}
)

func ptr[T any](v T) *T { return &v }

func boundPod(name, nodeName string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Namespace: "ns", Name: name, UID: meta.UID("uid-" + name), Labels: map[string]string{"app": "x"}},
		Spec:       corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{{Name: "c", Image: "i"}}},
	}
}

func mirrorPod(mod func(*corev1.Pod)) *corev1.Pod {
	p := boundPod("m", "a")
	p.Annotations = map[string]string{corev1.MirrorPodAnnotationKey: "hash"}
	p.OwnerReferences = []meta.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "a", UID: "uid-node-a", Controller: ptr(true)}}
	if mod != nil {
		mod(p)
	}
	return p
}

func nodeObj(name string, labels map[string]string, taints ...corev1.Taint) *corev1.Node {
	return &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels}, Spec: corev1.NodeSpec{Taints: taints}}
}

func gvr(group, resource string) meta.GroupVersionResource {
	v := "v1"
	return meta.GroupVersionResource{Group: group, Version: v, Resource: resource}
}

func write(op admission.Operation, r meta.GroupVersionResource, sub, ns, name string, obj, old meta.Object) *admission.Attributes {
	return &admission.Attributes{Operation: op, Resource: r, Subresource: sub, Namespace: ns, Name: name, Object: obj, OldObject: old, User: nodeA}
}

func TestValidate(t *testing.T) {
	pods, nodes := gvr("", "pods"), gvr("", "nodes")
	leases := gvr("coordination.platform.io", "leases")
	store := objects{
		"ns/mine":   boundPod("mine", "a"),
		"ns/theirs": boundPod("theirs", "b"),
	}
	nodeStore := objects{"/a": &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "a", UID: "uid-node-a"}}}
	hostname := map[string]string{"platform.io/hostname": "a"}
	withLabel := func(k, v string) map[string]string {
		m := map[string]string{"platform.io/hostname": "a"}
		m[k] = v
		return m
	}
	taint := corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}
	token := func(ref *authenticationv1.BoundObjectReference) *authenticationv1.TokenRequest {
		return &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{BoundObjectRef: ref}}
	}
	podRef := func(name, uid string) *authenticationv1.BoundObjectReference {
		return &authenticationv1.BoundObjectReference{APIVersion: "v1", Kind: "Pod", Name: name, UID: meta.UID(uid)}
	}
	leaseObj := func(ns, name string) *coordinationv1.Lease {
		return &coordinationv1.Lease{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name}}
	}
	tests := []struct {
		name string
		a    *admission.Attributes
		// wantErr is the refusal's whole message; "" admits.
		wantErr string
		// wantCode is the refusal's status code when it is not 403.
		wantCode int32
	}{
		// Nodes.
		{name: "create own node", a: write(admission.Create, nodes, "", "", "a", nodeObj("a", withLabel("topology.platform.io/zone", "z1")), nil)},
		{name: "create own node with any label of another domain", a: write(admission.Create, nodes, "", "", "a", nodeObj("a", withLabel("example.com/role", "db")), nil)},
		{name: "create own node with node.platform.io label", a: write(admission.Create, nodes, "", "", "a", nodeObj("a", withLabel("node.platform.io/instance-type", "m5")), nil)},
		{name: "create own node with taints", a: write(admission.Create, nodes, "", "", "a", nodeObj("a", hostname, taint), nil)},
		{
			name:    "create another node",
			a:       write(admission.Create, nodes, "", "", "b", nodeObj("b", nil), nil),
			wantErr: `nodes "b" is forbidden: node "a" is not allowed to modify node "b"`,
		},
		{
			name:    "create with a node-role label",
			a:       write(admission.Create, nodes, "", "", "a", nodeObj("a", withLabel("node-role.platform.io/master", "")), nil),
			wantErr: `nodes "a" is forbidden: node "a" is not allowed to set the following labels: node-role.platform.io/master`,
		},
		{
			name: "create with node-restriction labels",
			a: write(admission.Create, nodes, "", "", "a", nodeObj("a", map[string]string{
				"node-restriction.platform.io/pci": "true", "x.node-restriction.platform.io/y": "1", "platform.io/hostname": "a",
			}), nil),
			wantErr: `nodes "a" is forbidden: node "a" is not allowed to set the following labels: node-restriction.platform.io/pci, x.node-restriction.platform.io/y`,
		},
		{
			name: "create with a config source",
			a: write(admission.Create, nodes, "", "", "a", &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "a"},
				Spec: corev1.NodeSpec{ConfigSource: &corev1.NodeConfigSource{}}}, nil),
			wantErr: `nodes "a" is forbidden: node "a" is not allowed to create pods with a non-nil configSource`,
		},
		{name: "update own node", a: write(admission.Update, nodes, "", "", "a", nodeObj("a", withLabel("beta.platform.io/arch", "arm64")), nodeObj("a", hostname))},
		{name: "update own node status", a: write(admission.Update, nodes, "status", "", "a", nodeObj("a", hostname, taint), nodeObj("a", hostname, taint))},
		{name: "forbidden label already there, unchanged", a: write(admission.Update, nodes, "", "", "a", nodeObj("a", withLabel("platform.io/role", "x")), nodeObj("a", withLabel("platform.io/role", "x")))},
		{
			name:    "update another node's status",
			a:       write(admission.Update, nodes, "status", "", "b", nodeObj("b", nil), nodeObj("b", nil)),
			wantErr: `nodes "b" is forbidden: node "a" is not allowed to modify node "b"`,
		},
		{
			name:    "delete another node",
			a:       write(admission.Delete, nodes, "", "", "b", nil, nodeObj("b", nil)),
			wantErr: `nodes "b" is forbidden: node "a" is not allowed to modify node "b"`,
		},
		{name: "delete own node", a: write(admission.Delete, nodes, "", "", "a", nil, nodeObj("a", nil))},
		{
			name:    "update removes a platform.io label",
			a:       write(admission.Update, nodes, "", "", "a", nodeObj("a", hostname), nodeObj("a", withLabel("platform.io/role", "x"))),
			wantErr: `nodes "a" is forbidden: is not allowed to modify labels: platform.io/role`,
		},
		{
			name:    "update changes a node-role label",
			a:       write(admission.Update, nodes, "", "", "a", nodeObj("a", withLabel("node-role.platform.io/worker", "y")), nodeObj("a", withLabel("node-role.platform.io/worker", ""))),
			wantErr: `nodes "a" is forbidden: is not allowed to modify labels: node-role.platform.io/worker`,
		},
		{
			name:    "update removes a taint",
			a:       write(admission.Update, nodes, "", "", "a", nodeObj("a", hostname), nodeObj("a", hostname, taint)),
			wantErr: `nodes "a" is forbidden: node "a" is not allowed to modify taints`,
		},
		{
			name:    "status update adds a taint",
			a:       write(admission.Update, nodes, "status", "", "a", nodeObj("a", hostname, taint), nodeObj("a", hostname)),
			wantErr: `nodes "a" is forbidden: node "a" is not allowed to modify taints`,
		},
		// Pods.
		{name: "update status of own pod", a: write(admission.Update, pods, "status", "ns", "mine", boundPod("mine", "a"), boundPod("mine", "a"))},
		{
			name:    "update status of another node's pod",
			a:       write(admission.Update, pods, "status", "ns", "theirs", boundPod("theirs", "a"), boundPod("theirs", "b")),
			wantErr: `pods "theirs" is forbidden: node "a" can only update pod status for pods with spec.nodeName set to itself`,
		},
		{
			name: "labels through pod status",
			a: write(admission.Update, pods, "status", "ns", "mine", func() *corev1.Pod {
				p := boundPod("mine", "a")
				p.Labels = map[string]string{"app": "y"}
				return p
			}(), boundPod("mine", "a")),
			wantErr: `pods "mine" is forbidden: node "a" cannot update labels through pod status`,
		},
		{name: "delete own pod", a: write(admission.Delete, pods, "", "ns", "mine", nil, boundPod("mine", "a"))},
		{name: "delete own pod, read from the store", a: write(admission.Delete, pods, "", "ns", "mine", nil, nil)},
		{
			name:    "delete another node's pod",
			a:       write(admission.Delete, pods, "", "ns", "theirs", nil, boundPod("theirs", "b")),
			wantErr: `pods "theirs" is forbidden: node "a" can only delete pods with spec.nodeName set to itself`,
		},
		{
			name:    "update a pod",
			a:       write(admission.Update, pods, "", "ns", "mine", boundPod("mine", "a"), boundPod("mine", "a")),
			wantErr: `pods "mine" is forbidden: unexpected operation "UPDATE", node "a" can only create and delete mirror pods`,
		},
		{
			name:    "bind a pod",
			a:       write(admission.Create, pods, "binding", "ns", "mine", &corev1.Binding{}, nil),
			wantErr: `pods "mine" is forbidden: unexpected subresource "binding", only 'status' and 'eviction' are allowed`,
		},
		{name: "evict own pod", a: write(admission.Create, pods, "eviction", "ns", "mine", &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "mine"}}, nil)},
		{
			name:    "evict another node's pod",
			a:       write(admission.Create, pods, "eviction", "ns", "theirs", &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "theirs"}}, nil),
			wantErr: `pods "theirs" is forbidden: node a can only evict pods with spec.nodeName set to itself`,
		},
		{
			name:     "evict a missing pod",
			a:        write(admission.Create, pods, "eviction", "ns", "ghost", &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "ghost"}}, nil),
			wantErr:  `things "ghost" not found`,
			wantCode: 404,
		},
		{name: "create own mirror pod", a: write(admission.Create, pods, "", "ns", "m", mirrorPod(nil), nil)},
		{
			name:    "create a pod that is not a mirror pod",
			a:       write(admission.Create, pods, "", "ns", "mine", boundPod("mine", "a"), nil),
			wantErr: `pods "mine" is forbidden: pod does not have "platform.io/config.mirror" annotation, node "a" can only create mirror pods`,
		},
		{
			name:    "mirror pod on another node",
			a:       write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) { p.Spec.NodeName = "b" }), nil),
			wantErr: `pods "m" is forbidden: node "a" can only create pods with spec.nodeName set to itself`,
		},
		{
			name:    "mirror pod without owner",
			a:       write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) { p.OwnerReferences = nil }), nil),
			wantErr: `pods "m" is forbidden: node "a" can only create pods with an owner reference set to itself`,
		},
		{
			name:    "mirror pod owned by another node's uid",
			a:       write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) { p.OwnerReferences[0].UID = "old" }), nil),
			wantErr: `pods "m" is forbidden: node a UID mismatch: expected old got uid-node-a`,
		},
		{
			name:    "mirror pod not controlled",
			a:       write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) { p.OwnerReferences[0].Controller = nil }), nil),
			wantErr: `pods "m" is forbidden: node "a" can only create pods with a controller owner reference set to itself`,
		},
		{
			name:    "mirror pod with a service account",
			a:       write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) { p.Spec.ServiceAccountName = "default" }), nil),
			wantErr: `pods "m" is forbidden: node "a" can not create pods that reference a service account`,
		},
		{
			name: "mirror pod with a secret",
			a: write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) {
				p.Spec.Containers[0].EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}}}}
			}), nil),
			wantErr: `pods "m" is forbidden: node "a" can not create pods that reference secrets`,
		},
		{
			name: "mirror pod with a config map",
			a: write(admission.Create, pods, "", "ns", "m", mirrorPod(func(p *corev1.Pod) {
				p.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "c"}}}}}
			}), nil),
			wantErr: `pods "m" is forbidden: node "a" can not create pods that reference configmaps`,
		},
		// Tokens.
		{name: "token for own pod", a: write(admission.Create, gvr("", "serviceaccounts"), "token", "ns", "default", token(podRef("mine", "uid-mine")), nil)},
		{
			name:    "token for another node's pod",
			a:       write(admission.Create, gvr("", "serviceaccounts"), "token", "ns", "default", token(podRef("theirs", "uid-theirs")), nil),
			wantErr: `serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node`,
		},
		{
			name:    "unbound token",
			a:       write(admission.Create, gvr("", "serviceaccounts"), "token", "ns", "default", token(nil), nil),
			wantErr: `serviceaccounts "default" is forbidden: node requested token not bound to a pod`,
		},
		{
			name:    "token without uid",
			a:       write(admission.Create, gvr("", "serviceaccounts"), "token", "ns", "default", token(podRef("mine", "")), nil),
			wantErr: `serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid`,
		},
		{
			name:    "token for a recreated pod",
			a:       write(admission.Create, gvr("", "serviceaccounts"), "token", "ns", "default", token(podRef("mine", "stale")), nil),
			wantErr: `serviceaccounts "default" is forbidden: the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated`,
		},
		// Leases.
		{name: "create own lease", a: write(admission.Create, leases, "", "platform-node-lease", "", leaseObj("platform-node-lease", "a"), nil)},
		{name: "renew own lease", a: write(admission.Update, leases, "", "platform-node-lease", "a", leaseObj("platform-node-lease", "a"), leaseObj("platform-node-lease", "a"))},
		{
			name:    "renew another node's lease",
			a:       write(admission.Update, leases, "", "platform-node-lease", "b", leaseObj("platform-node-lease", "b"), leaseObj("platform-node-lease", "b")),
			wantErr: `leases.coordination.platform.io "b" is forbidden: can only access node lease with the same name as the requesting node`,
		},
		{
			name:    "lease in another namespace",
			a:       write(admission.Create, leases, "", "platform-system", "a", leaseObj("platform-system", "a"), nil),
			wantErr: `leases.coordination.platform.io "a" is forbidden: can only access leases in the "platform-node-lease" system namespace`,
		},
		// Other resources are not the plugin's.
		{name: "config map", a: write(admission.Create, gvr("", "configmaps"), "", "ns", "c", &corev1.ConfigMap{}, nil)},
	}
	p := New(store, nodeStore)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validate(p, tt.a)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			code := tt.wantCode
			if code == 0 {
				code = 403
			}
			if err == nil || apierrors.CodeForError(err) != code || err.Error() != tt.wantErr {
				t.Fatalf("error = %v (%d), want %d %q", err, apierrors.CodeForError(err), code, tt.wantErr)
			}
		})
	}
}

// validate runs the plugin as the chain does.
func validate(p *Plugin, a *admission.Attributes) error {
	return admission.NewChain([]admission.Named{{Name: Name, Plugin: p}}, nil).Validate(context.Background(), a)
}

func TestOtherUsers(t *testing.T) {
	p := New(objects{}, objects{})
	other := write(admission.Update, gvr("", "nodes"), "", "", "b", nodeObj("b", map[string]string{"node-role.platform.io/x": ""}), nodeObj("b", nil))
	tests := []struct {
		name    string
		user    *authn.User
		wantErr string
	}{
		{name: "administrator", user: admin},
		{name: "node name without the nodes group", user: &authn.User{Name: "system:node:a"}},
		{name: "nodes group without a node name", user: &authn.User{Name: "bob", Groups: []string{"system:nodes"}}},
		{
			name:    "empty node name",
			user:    &authn.User{Name: "system:node:", Groups: []string{"system:nodes"}},
			wantErr: `nodes "b" is forbidden: could not determine node from user "system:node:"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := *other
			a.User = tt.user
			err := validate(p, &a)
			if tt.wantErr == "" && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tt.wantErr != "" && (!apierrors.IsForbidden(err) || err.Error() != tt.wantErr) {
				t.Fatalf("error = %v, want 403 %q", err, tt.wantErr)
			}
		})
	}
}
