package priorityclass

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// TestEnsureSystemClasses creates the built-in classes once and is a no-op
// the second time (a restart).
func TestEnsureSystemClasses(t *testing.T) {
	c, prefix := etcdtest.Client(t)
	store := registry.NewStore(Resource(), registry.Config{Storage: etcd3.New(zap.NewNop(), c, prometheus.NewRegistry()), Prefix: prefix})
	ctx := context.Background()
	for range 2 {
		if err := EnsureSystemClasses(ctx, zap.NewNop(), store); err != nil {
			t.Fatal(err)
		}
	}
	l, err := store.List(ctx, "", registry.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := l.Objects()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*schedulingv1.PriorityClass{}
	for _, o := range objs {
		pc := o.(*schedulingv1.PriorityClass)
		got[pc.Name] = pc
	}
	for _, want := range schedulingv1.SystemPriorityClasses() {
		pc := got[want.Name]
		if pc == nil || pc.Value != want.Value || pc.GlobalDefault || pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != corev1.PreemptLowerPriority {
			t.Errorf("%s stored as %+v", want.Name, pc)
		}
		if pc != nil && pc.ResourceVersion == "" {
			t.Errorf("%s has no resourceVersion", want.Name)
		}
	}
	if len(got) != 2 {
		t.Errorf("stored %d classes, want 2", len(got))
	}
}
