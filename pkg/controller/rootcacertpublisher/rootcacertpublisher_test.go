package rootcacertpublisher

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

type fakeWriter struct {
	created, updated []*corev1.ConfigMap
	err              error
}

func (f *fakeWriter) create(_ context.Context, cm *corev1.ConfigMap) error {
	f.created = append(f.created, cm)
	return f.err
}

func (f *fakeWriter) update(_ context.Context, cm *corev1.ConfigMap) error {
	f.updated = append(f.updated, cm)
	return f.err
}

func TestReconcile(t *testing.T) {
	const ca = "-----BEGIN CERTIFICATE-----\nMII...\n-----END CERTIFICATE-----\n"
	active := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "ns"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
	ts := meta.NewTime(time.Unix(1, 0))
	terminating := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "ns", DeletionTimestamp: &ts}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating}}
	cm := func(data map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: ConfigMapName, Namespace: "ns", ResourceVersion: "7",
			Labels: map[string]string{"keep": "me"}}, Data: data}
	}
	tests := []struct {
		name             string
		ns               *corev1.Namespace
		existing         *corev1.ConfigMap
		err              error
		created, updated int
		wantErr          bool
	}{
		{name: "missing: created", ns: active, created: 1},
		{name: "published: nothing", ns: active, existing: cm(map[string]string{DataKey: ca})},
		{name: "changed: put back", ns: active, existing: cm(map[string]string{DataKey: "other"}), updated: 1},
		{name: "extra key: removed", ns: active, existing: cm(map[string]string{DataKey: ca, "x": "y"}), updated: 1},
		{name: "namespace gone: nothing"},
		{name: "terminating: nothing", ns: terminating},
		{name: "created meanwhile by another: fine", ns: active, created: 1,
			err: apierrors.NewAlreadyExists(meta.GroupResource{Resource: "configmaps"}, ConfigMapName)},
		{name: "create fails: retried", ns: active, created: 1, err: errors.New("boom"), wantErr: true},
		{name: "update conflicts: retried", ns: active, existing: cm(nil), updated: 1,
			err: apierrors.NewConflict(meta.GroupResource{Resource: "configmaps"}, ConfigMapName, errors.New("stale")), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nss := informer.NewStore[*corev1.Namespace]()
			if tc.ns != nil {
				nss.Add(tc.ns)
			}
			cms := informer.NewStore[*corev1.ConfigMap]()
			var before map[string]string
			if tc.existing != nil {
				cms.Add(tc.existing)
				before = maps.Clone(tc.existing.Data)
			}
			w := &fakeWriter{err: tc.err}
			r := &reconciler{
				namespaces: informer.NewLister(nss, meta.GroupResource{Resource: "namespaces"}),
				configMaps: informer.NewLister(cms, meta.GroupResource{Resource: "configmaps"}),
				write:      w,
				bundle:     ca,
			}
			_, err := r.Reconcile(context.Background(), "ns")
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if len(w.created) != tc.created || len(w.updated) != tc.updated {
				t.Fatalf("created %d, updated %d; want %d, %d", len(w.created), len(w.updated), tc.created, tc.updated)
			}
			for _, got := range append(w.created, w.updated...) {
				if got.Namespace != "ns" || got.Name != ConfigMapName || !maps.Equal(got.Data, map[string]string{DataKey: ca}) {
					t.Errorf("wrote %s/%s %v, want the bundle alone", got.Namespace, got.Name, got.Data)
				}
			}
			for _, got := range w.updated {
				if got.ResourceVersion != "7" || got.Labels["keep"] != "me" {
					t.Errorf("update lost the object's metadata: %+v", got.ObjectMeta)
				}
			}
			if tc.existing != nil && !maps.Equal(tc.existing.Data, before) {
				t.Errorf("the cached object was modified: %v, was %v", tc.existing.Data, before)
			}
		})
	}
}
