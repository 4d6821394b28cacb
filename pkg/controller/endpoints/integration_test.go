package endpoints_test

import (
	"context"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/endpoints"
	"platform.io/platform/test/integration/framework"
)

func eventually(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached (last error %v)", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEndpointsFollowPodsAndService: against a real API server, the
// Endpoints of a service list its pods by readiness with the named port
// resolved, follow a pod turning ready, leave a selectorless service's
// Endpoints alone, and go with the service.
func TestEndpointsFollowPodsAndService(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	loop, err := endpoints.New(controller.Context{Deps: d}, *endpoints.NewOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	defer func() { cancel(); <-done }()
	set := d.Clients
	pods, svcs, eps := set.Pods.Namespace("default"), set.Services.Namespace("default"), set.Endpoints.Namespace("default")

	manual := &corev1.Endpoints{ObjectMeta: meta.ObjectMeta{Name: "manual"}, Subsets: []corev1.EndpointSubset{{
		Addresses: []corev1.EndpointAddress{{IP: "192.168.1.1"}}, Ports: []corev1.EndpointPort{{Port: 5432, Protocol: corev1.ProtocolTCP}}}}}
	for _, svc := range []*corev1.Service{
		{ObjectMeta: meta.ObjectMeta{Name: "web"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}}}},
		{ObjectMeta: meta.ObjectMeta{Name: "manual"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 5432}}}},
	} {
		if _, err := svcs.Create(ctx, svc, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := eps.Create(ctx, manual, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a", "b"} {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}}, Spec: corev1.PodSpec{
			NodeName: "n1", Containers: []corev1.Container{{Name: "c", Image: "nginx", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}}}}}
		p, err := pods.Create(ctx, p, meta.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p.Status.Phase, p.Status.PodIP = corev1.PodRunning, "10.0.0."+string(rune('1'+i))
		ready := corev1.ConditionFalse
		if i == 0 {
			ready = corev1.ConditionTrue
		}
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready, LastTransitionTime: meta.Now()}}
		if _, err := pods.UpdateStatus(ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var got *corev1.Endpoints
	eventually(t, "endpoints of web", func() (bool, error) {
		got, err = eps.Get(ctx, "web", meta.GetOptions{})
		return err == nil && len(got.Subsets) == 1 && len(got.Subsets[0].Addresses) == 1 && len(got.Subsets[0].NotReadyAddresses) == 1, err
	})
	ss := got.Subsets[0]
	if ss.Addresses[0].IP != "10.0.0.1" || ss.Addresses[0].TargetRef.Name != "a" || *ss.Addresses[0].NodeName != "n1" ||
		ss.NotReadyAddresses[0].IP != "10.0.0.2" || len(ss.Ports) != 1 || ss.Ports[0].Port != 8080 || ss.Ports[0].Name != "http" {
		t.Errorf("subset %+v", ss)
	}
	if got.Annotations[endpoints.AnnotationLastChangeTriggerTime] == "" {
		t.Errorf("no %s annotation: %v", endpoints.AnnotationLastChangeTriggerTime, got.Annotations)
	}

	b, err := pods.Get(ctx, "b", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Status.Conditions[0].Status = corev1.ConditionTrue
	if _, err := pods.UpdateStatus(ctx, b, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "b ready in endpoints", func() (bool, error) {
		got, err = eps.Get(ctx, "web", meta.GetOptions{})
		return err == nil && len(got.Subsets) == 1 && len(got.Subsets[0].Addresses) == 2 && len(got.Subsets[0].NotReadyAddresses) == 0, err
	})

	if err := svcs.Delete(ctx, "web", nil); err != nil {
		t.Fatal(err)
	}
	eventually(t, "endpoints deleted with the service", func() (bool, error) {
		_, err := eps.Get(ctx, "web", meta.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	m, err := eps.Get(ctx, "manual", meta.GetOptions{})
	if err != nil || len(m.Subsets) != 1 || m.Subsets[0].Addresses[0].IP != "192.168.1.1" {
		t.Errorf("selectorless service's endpoints changed: %+v, %v", m, err)
	}
}
