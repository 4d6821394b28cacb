package serviceaccount

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
)

type fakeCreator struct {
	created []string
	err     error
}

func (f *fakeCreator) create(_ context.Context, sa *corev1.ServiceAccount) error {
	f.created = append(f.created, sa.Namespace+"/"+sa.Name)
	return f.err
}

func TestReconcile(t *testing.T) {
	active := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "ns"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
	ts := meta.NewTime(time.Unix(1, 0))
	terminating := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "ns", DeletionTimestamp: &ts}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating}}
	existing := &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Name: "default", Namespace: "ns"}}
	other := &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Name: "builder", Namespace: "ns"}}
	tests := []struct {
		name     string
		ns       *corev1.Namespace
		accounts []*corev1.ServiceAccount
		err      error
		created  int
		wantErr  bool
	}{
		{name: "missing: created", ns: active, accounts: []*corev1.ServiceAccount{other}, created: 1},
		{name: "present: nothing", ns: active, accounts: []*corev1.ServiceAccount{existing}},
		{name: "namespace gone: nothing"},
		{name: "terminating: nothing", ns: terminating},
		{name: "created meanwhile by another: fine", ns: active, created: 1,
			err: apierrors.NewAlreadyExists(meta.GroupResource{Resource: "serviceaccounts"}, "default")},
		{name: "create fails: retried", ns: active, created: 1, err: errors.New("boom"), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nss := informer.NewStore[*corev1.Namespace]()
			if tc.ns != nil {
				nss.Add(tc.ns)
			}
			sas := informer.NewStore[*corev1.ServiceAccount]()
			for _, sa := range tc.accounts {
				sas.Add(sa)
			}
			w := &fakeCreator{err: tc.err}
			r := &reconciler{
				namespaces: informer.NewLister(nss, meta.GroupResource{Resource: "namespaces"}),
				accounts:   informer.NewLister(sas, meta.GroupResource{Resource: "serviceaccounts"}),
				write:      w,
			}
			_, err := r.Reconcile(context.Background(), "ns")
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if len(w.created) != tc.created || tc.created > 0 && w.created[0] != "ns/default" {
				t.Errorf("created %v, want %d", w.created, tc.created)
			}
		})
	}
}
