package gc

import (
	"fmt"
	"slices"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/garbagecollector"
)

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

func deleteWith(t *testing.T, e env, ns, name string, p meta.DeletionPropagation) {
	t.Helper()
	if err := e.set.ConfigMaps.Namespace(ns).Delete(e.ctx, name, &meta.DeleteOptions{PropagationPolicy: &p}); err != nil {
		t.Fatalf("delete %s/%s (%s): %v", ns, name, p, err)
	}
}

func cmOwner(cm *corev1.ConfigMap, block bool) meta.OwnerReference {
	return ownerRef("v1", "ConfigMap", cm.Name, cm.UID, block)
}

func waitGone(t *testing.T, e env, ns string, cms []string, pods []string) {
	t.Helper()
	for _, n := range cms {
		eventually(t, "configmap "+n+" deleted", func() (bool, error) { return gone(e, e.set.ConfigMaps, ns, n) })
	}
	for _, n := range pods {
		eventually(t, "pod "+n+" deleted", func() (bool, error) { return gone(e, e.set.Pods, ns, n) })
	}
}

// TestCascadingDelete deletes hand-built owner chains with each
// propagation policy, with only the garbage collector running.
func TestCascadingDelete(t *testing.T) {
	e := start(t, garbagecollector.Descriptor())
	t.Run("Background", func(t *testing.T) { testBackground(t, e) })
	t.Run("Foreground", func(t *testing.T) { testForeground(t, e) })
	t.Run("Orphan", func(t *testing.T) { testOrphan(t, e) })
	t.Run("Dangling", func(t *testing.T) { testDangling(t, e) })
}

// testBackground: the owner goes at once, then its dependents; a dependent
// with another, living owner stays and loses the reference to the deleted one.
func testBackground(t *testing.T, e env) {
	ns := "background"
	createNamespace(t, e, ns)
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owner"))
	other := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "other"))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "dep-1", cmOwner(owner, false)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "dep-2", cmOwner(owner, true)))
	mustCreate(t, e, e.set.Pods, pod(ns, "pod-1", cmOwner(owner, true)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "shared", cmOwner(owner, false), cmOwner(other, false)))
	deleteWith(t, e, ns, "owner", meta.DeletePropagationBackground)
	if ok, err := gone(e, e.set.ConfigMaps, ns, "owner"); !ok {
		t.Fatalf("owner still there after a background delete (%v)", err)
	}
	waitGone(t, e, ns, []string{"dep-1", "dep-2"}, []string{"pod-1"})
	eventually(t, "shared loses its reference to the deleted owner", func() (bool, error) {
		cm, err := e.set.ConfigMaps.Namespace(ns).Get(e.ctx, "shared", meta.GetOptions{})
		if err != nil {
			return false, err
		}
		return len(cm.OwnerReferences) == 1 && cm.OwnerReferences[0].UID == other.UID, nil
	})
}

// testForeground: the owner stays, being deleted, while a dependent with
// blockOwnerDeletion remains; dependents of dependents go first; then the
// owner goes.
func testForeground(t *testing.T, e env) {
	ns := "foreground"
	createNamespace(t, e, ns)
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owner"))
	held := configMap(ns, "held", cmOwner(owner, true))
	held.Finalizers = []string{"example.com/hold"}
	mustCreate(t, e, e.set.ConfigMaps, held)
	mid := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "mid", cmOwner(owner, true)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "grandchild", cmOwner(mid, true)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "loose", cmOwner(owner, false)))
	mustCreate(t, e, e.set.Pods, pod(ns, "pod-1", cmOwner(owner, true)))
	deleteWith(t, e, ns, "owner", meta.DeletePropagationForeground)

	waitGone(t, e, ns, []string{"grandchild", "mid", "loose"}, []string{"pod-1"})
	eventually(t, "held is being deleted", func() (bool, error) {
		cm, err := e.set.ConfigMaps.Namespace(ns).Get(e.ctx, "held", meta.GetOptions{})
		return err == nil && cm.DeletionTimestamp != nil, err
	})
	cur, err := e.set.ConfigMaps.Namespace(ns).Get(e.ctx, "owner", meta.GetOptions{})
	if err != nil {
		t.Fatalf("owner gone while a blocking dependent remains: %v", err)
	}
	if cur.DeletionTimestamp == nil || !slices.Contains(cur.Finalizers, meta.FinalizerDeleteDependents) {
		t.Fatalf("owner during foreground deletion: deletionTimestamp %v, finalizers %v", cur.DeletionTimestamp, cur.Finalizers)
	}
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	if _, err := e.set.ConfigMaps.Namespace(ns).Patch(e.ctx, "held", rest.MergePatchType, patch, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitGone(t, e, ns, []string{"held", "owner"}, nil)
}

// testOrphan: the owner goes once its dependents no longer reference it;
// the dependents stay.
func testOrphan(t *testing.T, e env) {
	ns := "orphan"
	createNamespace(t, e, ns)
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owner"))
	other := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "other"))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "dep-1", cmOwner(owner, true)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "dep-2", cmOwner(owner, false), cmOwner(other, true)))
	mustCreate(t, e, e.set.Pods, pod(ns, "pod-1", cmOwner(owner, true)))
	deleteWith(t, e, ns, "owner", meta.DeletePropagationOrphan)
	waitGone(t, e, ns, []string{"owner"}, nil)
	for _, n := range []string{"dep-1", "dep-2"} {
		cm, err := e.set.ConfigMaps.Namespace(ns).Get(e.ctx, n, meta.GetOptions{})
		if err != nil {
			t.Fatalf("orphaned dependent %s: %v", n, err)
		}
		for _, r := range cm.OwnerReferences {
			if r.UID == owner.UID {
				t.Errorf("%s still references the deleted owner", n)
			}
		}
		if n == "dep-2" && (len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != other.UID) {
			t.Errorf("dep-2 lost its other owner: %+v", cm.OwnerReferences)
		}
	}
	p, err := e.set.Pods.Namespace(ns).Get(e.ctx, "pod-1", meta.GetOptions{})
	if err != nil || len(p.OwnerReferences) != 0 {
		t.Fatalf("orphaned pod: %v, owners %+v", err, p)
	}
}

// testDangling: dependents naming an owner that does not exist, or exists
// with another uid, are deleted; dependents created right after their
// owners (the informers may show the dependent first) are not.
func testDangling(t *testing.T, e env) {
	ns := "dangling"
	createNamespace(t, e, ns)
	var live []string
	for i := range 10 {
		owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, fmt.Sprintf("owner-%d", i)))
		n := fmt.Sprintf("live-%d", i)
		mustCreate(t, e, e.set.Pods, pod(ns, n, cmOwner(owner, true)))
		live = append(live, n)
	}
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "no-owner",
		ownerRef("v1", "ConfigMap", "ghost", "8d3b2a6e-0000-4000-8000-000000000001", false)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "wrong-uid",
		ownerRef("v1", "ConfigMap", "owner-0", "8d3b2a6e-0000-4000-8000-000000000002", false)))
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "cluster-owner",
		ownerRef("v1", "Node", "no-such-node", "8d3b2a6e-0000-4000-8000-000000000003", false)))
	waitGone(t, e, ns, []string{"no-owner", "wrong-uid", "cluster-owner"}, nil)
	for _, n := range live {
		if ok, err := gone(e, e.set.Pods, ns, n); ok || err != nil {
			t.Errorf("pod %s with a living owner was deleted (%v)", n, err)
		}
	}
}
