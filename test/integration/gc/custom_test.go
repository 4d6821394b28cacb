package gc

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller/garbagecollector"
)

const widgetGroup = "gc.example.com"

// widgets is the custom resource these tests define, namespaced.
var widgets = meta.GroupVersionResource{Group: widgetGroup, Version: "v1", Resource: "widgets"}

// installCRD defines plural.gc.example.com (kind kind, namespaced, one
// version v1 keeping every field) and waits until its resource is in
// discovery.
func installCRD(t *testing.T, e env, plural, kind string) {
	t.Helper()
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + widgetGroup},
		"spec": map[string]any{
			"group": widgetGroup, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "kind": kind},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
			}},
		},
	}
	e.srv.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).Expect(t, http.StatusCreated)
	eventually(t, plural+" in discovery", func() (bool, error) {
		var l meta.APIResourceList
		r := e.srv.Do(t, "GET", "/apis/"+widgetGroup+"/v1", nil)
		if r.Code != http.StatusOK {
			return false, fmt.Errorf("HTTP %d", r.Code)
		}
		r.Into(t, &l)
		for _, ar := range l.APIResources {
			if ar.Name == plural {
				return true, nil
			}
		}
		return false, nil
	})
}

func widget(ns, name string, owners ...meta.OwnerReference) *client.Unstructured {
	u := &client.Unstructured{}
	u.SetAPIVersion(widgetGroup + "/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetNestedField(map[string]any{"size": int64(3)}, "spec")
	if len(owners) > 0 {
		refs := make([]any, len(owners))
		for i, o := range owners {
			r := map[string]any{"apiVersion": o.APIVersion, "kind": o.Kind, "name": o.Name, "uid": string(o.UID)}
			if o.BlockOwnerDeletion != nil {
				r["blockOwnerDeletion"] = *o.BlockOwnerDeletion
			}
			refs[i] = r
		}
		u.SetNestedField(refs, "metadata", "ownerReferences")
	}
	return u
}

func createWidget(t *testing.T, e env, w *client.Unstructured) *client.Unstructured {
	t.Helper()
	out, err := e.dyn.Resource(widgets).Namespace(w.GetNamespace()).Create(e.ctx, w, meta.WriteOptions{})
	if err != nil {
		t.Fatalf("create widget %s/%s: %v", w.GetNamespace(), w.GetName(), err)
	}
	return out
}

func widgetOwner(w *client.Unstructured, block bool) meta.OwnerReference {
	return ownerRef(widgetGroup+"/v1", "Widget", w.GetName(), meta.UID(w.GetUID()), block)
}

// widgetGone reports whether a Get of the widget says NotFound.
func widgetGone(e env, ns, name string) (bool, error) {
	_, err := e.dyn.Resource(widgets).Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
	if err == nil {
		return false, nil
	}
	if isNotFound(err) {
		return true, nil
	}
	return false, fmt.Errorf("get widget %s/%s: %w", ns, name, err)
}

func deleteWidget(t *testing.T, e env, ns, name string, p meta.DeletionPropagation) {
	t.Helper()
	if err := e.dyn.Resource(widgets).Namespace(ns).Delete(e.ctx, name, &meta.DeleteOptions{PropagationPolicy: &p}); err != nil {
		t.Fatalf("delete widget %s/%s (%s): %v", ns, name, p, err)
	}
}

// TestNamespaceDeletionRemovesCustomObjects deletes a namespace holding
// custom objects (one of them owned by a ConfigMap of the namespace): they
// go, then the namespace; another namespace's widget stays.
func TestNamespaceDeletionRemovesCustomObjects(t *testing.T) {
	e := start(t, allLoops()...)
	installCRD(t, e, "widgets", "Widget")
	const ns, other = "custom-ns", "custom-other"
	createNamespace(t, e, ns)
	createNamespace(t, e, other)
	for i := range 5 {
		createWidget(t, e, widget(ns, fmt.Sprintf("w%d", i)))
	}
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "owner"))
	createWidget(t, e, widget(ns, "owned", cmOwner(owner, false)))
	createWidget(t, e, widget(other, "keep"))
	began := time.Now()
	if err := e.set.Namespaces.Delete(e.ctx, ns, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "namespace removed", func() (bool, error) { return gone(e, e.set.Namespaces, "", ns) })
	t.Logf("namespace with 6 custom objects removed in %v", time.Since(began))
	l, err := e.dyn.Resource(widgets).Namespace(ns).List(e.ctx, meta.ListOptions{})
	if err != nil || len(l.Items) != 0 {
		t.Fatalf("widgets left in the removed namespace: %v, %d", err, len(l.Items))
	}
	if ok, err := widgetGone(e, other, "keep"); ok || err != nil {
		t.Errorf("the other namespace's widget: gone %v, %v", ok, err)
	}
}

// TestCustomDependentOfConfigMap: a widget owned by a ConfigMap goes with
// it.
func TestCustomDependentOfConfigMap(t *testing.T) {
	e := start(t, garbagecollector.Descriptor())
	installCRD(t, e, "widgets", "Widget")
	const ns = "default"
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "cm-owner"))
	createWidget(t, e, widget(ns, "cm-owned", cmOwner(owner, true)))
	free := createWidget(t, e, widget(ns, "free"))
	deleteWith(t, e, ns, "cm-owner", meta.DeletePropagationBackground)
	eventually(t, "widget owned by the configmap deleted", func() (bool, error) { return widgetGone(e, ns, "cm-owned") })
	if ok, err := widgetGone(e, ns, free.GetName()); ok || err != nil {
		t.Errorf("unowned widget: gone %v, %v", ok, err)
	}
}

// TestBuiltinDependentsOfCustomOwner deletes widgets owning a Pod and a
// ConfigMap with each propagation policy.
func TestBuiltinDependentsOfCustomOwner(t *testing.T) {
	e := start(t, garbagecollector.Descriptor())
	installCRD(t, e, "widgets", "Widget")
	const ns = "default"
	for _, p := range []meta.DeletionPropagation{meta.DeletePropagationBackground, meta.DeletePropagationForeground, meta.DeletePropagationOrphan} {
		t.Run(string(p), func(t *testing.T) {
			name := "owner-" + strings.ToLower(string(p))
			w := createWidget(t, e, widget(ns, name))
			po := mustCreate(t, e, e.set.Pods, pod(ns, name+"-pod", widgetOwner(w, true)))
			cm := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, name+"-cm", widgetOwner(w, true)))
			child := createWidget(t, e, widget(ns, name+"-child", widgetOwner(w, true)))
			deleteWidget(t, e, ns, name, p)
			eventually(t, "owner deleted", func() (bool, error) { return widgetGone(e, ns, name) })
			if p == meta.DeletePropagationOrphan {
				for _, c := range []struct {
					what string
					refs func() (int, error)
				}{
					{"pod", func() (int, error) {
						o, err := e.set.Pods.Namespace(ns).Get(e.ctx, po.Name, meta.GetOptions{})
						return refsOf(o, err)
					}},
					{"configmap", func() (int, error) {
						o, err := e.set.ConfigMaps.Namespace(ns).Get(e.ctx, cm.Name, meta.GetOptions{})
						return refsOf(o, err)
					}},
					{"widget", func() (int, error) {
						o, err := e.dyn.Resource(widgets).Namespace(ns).Get(e.ctx, child.GetName(), meta.GetOptions{})
						if err != nil {
							return 0, err
						}
						refs, _ := o.NestedField("metadata", "ownerReferences")
						l, _ := refs.([]any)
						return len(l), nil
					}},
				} {
					if n, err := c.refs(); err != nil || n != 0 {
						t.Errorf("orphaned %s: %d owner references, %v", c.what, n, err)
					}
				}
				return
			}
			eventually(t, "pod deleted", func() (bool, error) { return gone(e, e.set.Pods, ns, po.Name) })
			eventually(t, "configmap deleted", func() (bool, error) { return gone(e, e.set.ConfigMaps, ns, cm.Name) })
			eventually(t, "child widget deleted", func() (bool, error) { return widgetGone(e, ns, child.GetName()) })
		})
	}
}

func refsOf[T any, PT client.ObjectPtr[T]](o PT, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return len(o.GetObjectMeta().OwnerReferences), nil
}

// TestCustomResourceDefinedAfterStart: a resource defined after the
// collector started is watched within its discovery period, so its
// objects owned by a ConfigMap go with it.
func TestCustomResourceDefinedAfterStart(t *testing.T) {
	e := start(t, garbagecollector.Descriptor())
	const ns = "default"
	began := time.Now()
	installCRD(t, e, "gadgets", "Gadget")
	gadgets := meta.GroupVersionResource{Group: widgetGroup, Version: "v1", Resource: "gadgets"}
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "gadget-owner"))
	g := widget(ns, "gadget", cmOwner(owner, false))
	g.SetKind("Gadget")
	if _, err := e.dyn.Resource(gadgets).Namespace(ns).Create(e.ctx, g, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	deleteWith(t, e, ns, owner.Name, meta.DeletePropagationBackground)
	eventually(t, "gadget owned by the deleted configmap deleted", func() (bool, error) {
		_, err := e.dyn.Resource(gadgets).Namespace(ns).Get(e.ctx, "gadget", meta.GetOptions{})
		return isNotFound(err), err
	})
	t.Logf("definition to dependent collected: %v (discovery period %v)", time.Since(began), discoveryPeriod)
}

// TestNamespaceDeletionWaitsForDiscovery: while an aggregated API cannot
// be discovered, a deleted namespace is emptied of what can be found but
// kept, its NamespaceDeletionDiscoveryFailure condition saying why, and the
// garbage collector goes on; once the API is gone the namespace goes.
func TestNamespaceDeletionWaitsForDiscovery(t *testing.T) {
	e := start(t, allLoops()...)
	const group, apiService = "broken.example.com", "/apis/apiregistration.platform.io/v1/apiservices/v1.broken.example.com"
	e.srv.Do(t, "POST", "/apis/apiregistration.platform.io/v1/apiservices", map[string]any{
		"apiVersion": "apiregistration.platform.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": "v1." + group},
		"spec": map[string]any{
			"service": map[string]any{"namespace": "default", "name": "nothing", "port": 443},
			"group":   group, "version": "v1", "insecureSkipTLSVerify": true,
			"groupPriorityMinimum": 1000, "versionPriority": 15,
		},
	}).Expect(t, http.StatusCreated)
	eventually(t, "the aggregated group unavailable", func() (bool, error) {
		return e.srv.Do(t, "GET", "/apis/"+group+"/v1", nil).Code == http.StatusServiceUnavailable, nil
	})
	const ns = "held"
	createNamespace(t, e, ns)
	mustCreate(t, e, e.set.ConfigMaps, configMap(ns, "content"))
	if err := e.set.Namespaces.Delete(e.ctx, ns, nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "discovery failure reported", func() (bool, error) {
		n, err := e.set.Namespaces.Get(e.ctx, ns, meta.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NamespaceDeletionDiscoveryFailure && c.Status == corev1.ConditionTrue {
				if c.Reason != "DiscoveryFailed" || !strings.Contains(c.Message, group+"/v1") {
					return false, fmt.Errorf("condition %+v", c)
				}
				return true, nil
			}
		}
		return false, nil
	})
	eventually(t, "the discoverable content deleted", func() (bool, error) { return gone(e, e.set.ConfigMaps, ns, "content") })
	if ok, err := gone(e, e.set.Namespaces, "", ns); ok || err != nil {
		t.Fatalf("namespace removed while a group could not be discovered: %v, %v", ok, err)
	}
	// The garbage collector goes on with the groups it has.
	owner := mustCreate(t, e, e.set.ConfigMaps, configMap("default", "owner-while-broken"))
	mustCreate(t, e, e.set.ConfigMaps, configMap("default", "owned-while-broken", cmOwner(owner, false)))
	deleteWith(t, e, "default", owner.Name, meta.DeletePropagationBackground)
	eventually(t, "dependent collected while a group cannot be discovered", func() (bool, error) {
		return gone(e, e.set.ConfigMaps, "default", "owned-while-broken")
	})
	e.srv.Do(t, "DELETE", apiService, nil).Expect(t, http.StatusOK)
	eventually(t, "namespace removed", func() (bool, error) { return gone(e, e.set.Namespaces, "", ns) })
}
