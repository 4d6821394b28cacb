package namespacelifecycle

import (
	"context"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
)

type fakeNamespaces map[string]*corev1.Namespace

func (f fakeNamespaces) GetShared(_ context.Context, _, name string) (meta.Object, error) {
	if ns, ok := f[name]; ok {
		return ns, nil
	}
	return nil, apierrors.NewNotFound(namespacesResource, name)
}

func TestValidate(t *testing.T) {
	now := meta.Now()
	nss := fakeNamespaces{
		"live":  {ObjectMeta: meta.ObjectMeta{Name: "live"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}},
		"dying": {ObjectMeta: meta.ObjectMeta{Name: "dying", DeletionTimestamp: &now}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceTerminating}},
	}
	pods := meta.GroupVersionResource{Version: "v1", Resource: "pods"}
	namespaces := meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	cases := []struct {
		name string
		a    admission.Attributes
		code int32 // 0: admitted
	}{
		{"create in live namespace", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "live", Name: "p"}, 0},
		{"create in missing namespace", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "gone", Name: "p"}, 404},
		{"create in terminating namespace", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "dying", Name: "p"}, 403},
		{"binding in terminating namespace", admission.Attributes{Operation: admission.Create, Resource: pods, Subresource: "binding", Namespace: "dying", Name: "p"}, 0},
		{"cluster-scoped create", admission.Attributes{Operation: admission.Create, Resource: namespaces, Name: "new"}, 0},
		{"delete platform-system", admission.Attributes{Operation: admission.Delete, Resource: namespaces, Name: "platform-system"}, 403},
		{"delete default", admission.Attributes{Operation: admission.Delete, Resource: namespaces, Name: "default"}, 403},
		{"delete platform-public", admission.Attributes{Operation: admission.Delete, Resource: namespaces, Name: "platform-public"}, 403},
		{"delete another namespace", admission.Attributes{Operation: admission.Delete, Resource: namespaces, Name: "live"}, 0},
		{"delete a pod in platform-system", admission.Attributes{Operation: admission.Delete, Resource: pods, Namespace: "platform-system", Name: "default"}, 0},
	}
	p := New(nss)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := p.Validate(context.Background(), &tc.a)
			if got := codeOf(err); got != tc.code {
				t.Errorf("code %d (%v), want %d", got, err, tc.code)
			}
		})
	}
}

func codeOf(err error) int32 {
	if err == nil {
		return 0
	}
	return apierrors.CodeForError(err)
}
