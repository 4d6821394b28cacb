package garbagecollector

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/zap"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// TestUnknownOwnerKindIsNotAbsent: an owner whose kind discovery does not
// list (a custom resource defined since the last discovery) is retried,
// never taken for absent: its dependent is not deleted.
func TestUnknownOwnerKindIsNotAbsent(t *testing.T) {
	var deleted []string
	cmOps := ops{
		info: configMaps,
		get: func(_ context.Context, ns, name string) (*meta.ObjectMeta, error) {
			return obj(name, "dep", meta.OwnerReference{APIVersion: "example.com/v1", Kind: "Widget", Name: "w", UID: "w1"}), nil
		},
		delete: func(_ context.Context, ns, name string, _ *meta.DeleteOptions) error {
			deleted = append(deleted, name)
			return nil
		},
	}
	cat := &catalog{}
	cat.replace(map[groupKind]ops{{"", "ConfigMap"}: cmOps})
	var rec recorded
	col := &collector{lg: zap.NewNop(), cat: cat}
	col.g = newGraph(cat.scope, rec.queues(), 10)
	col.g.process(change{res: configMaps, obj: obj("dep", "dep", meta.OwnerReference{APIVersion: "example.com/v1", Kind: "Widget", Name: "w", UID: "w1"})})
	d := deleter{col}
	for _, uid := range []string{"w1", "dep"} {
		if _, err := d.Reconcile(context.Background(), uid); !errors.Is(err, errUnknownKind) {
			t.Errorf("Reconcile(%s) = %v, want a retry for the unknown kind", uid, err)
		}
	}
	if len(deleted) > 0 {
		t.Errorf("deleted %v", deleted)
	}
	if _, ok := col.g.view("w1"); !ok {
		t.Error("the virtual owner left the graph")
	}
	// Once discovery lists the kind and the owner is found, the
	// dependent stays; once the owner is gone, it goes.
	owner := &meta.ObjectMeta{Namespace: "ns", Name: "w", UID: "w1"}
	cat.replace(map[groupKind]ops{{"", "ConfigMap"}: cmOps, {"example.com", "Widget"}: {
		info: resourceInfo{APIVersion: "example.com/v1", Kind: "Widget", Namespaced: true},
		get: func(context.Context, string, string) (*meta.ObjectMeta, error) {
			if owner == nil {
				return nil, notFound()
			}
			return owner, nil
		},
	}})
	if _, err := d.Reconcile(context.Background(), "dep"); err != nil || len(deleted) > 0 {
		t.Fatalf("with the owner present: %v, deleted %v", err, deleted)
	}
	owner = nil
	if _, err := d.Reconcile(context.Background(), "dep"); err != nil || len(deleted) != 1 {
		t.Fatalf("with the owner gone: %v, deleted %v", err, deleted)
	}
}

func notFound() error {
	return apierrors.NewNotFound(meta.GroupResource{Group: "example.com", Resource: "widgets"}, "w")
}
