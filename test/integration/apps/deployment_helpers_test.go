package apps

import (
	"fmt"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/deployment"
	"platform.io/platform/pkg/controller/replicaset"
)

// startDeployments runs the deployment and replicaset loops.
func startDeployments(t *testing.T) *env {
	return start(t, nil, deployment.Descriptor(), replicaset.Descriptor())
}

// newDeployment returns a RollingUpdate Deployment of n pods of image
// selecting app=name.
func newDeployment(name string, n int32, image string, surge, unavailable intstr.IntOrString) *appsv1.Deployment {
	l := map[string]string{"app": name}
	d := &appsv1.Deployment{}
	d.Name = name
	d.Spec.Replicas = &n
	d.Spec.Selector = &meta.LabelSelector{MatchLabels: l}
	d.Spec.Template = podTemplate(l, image)
	d.Spec.Strategy = appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable},
	}
	return d
}

func (e *env) getDeployment(t *testing.T, name string) *appsv1.Deployment {
	t.Helper()
	d, err := e.set.Deployments.Namespace(e.ns).Get(e.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// replicaSets lists the ReplicaSets matching sel.
func (e *env) replicaSets(t *testing.T, sel string) []appsv1.ReplicaSet {
	t.Helper()
	l, err := e.set.ReplicaSets.Namespace(e.ns).List(e.ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// patchDeployment applies a merge patch to the Deployment name.
func (e *env) patchDeployment(t *testing.T, name, patch string) {
	t.Helper()
	if _, err := e.set.Deployments.Namespace(e.ns).Patch(e.ctx, name, rest.MergePatchType, []byte(patch), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setImage changes the image of the Deployment's container.
func (e *env) setImage(t *testing.T, name, image string) {
	t.Helper()
	e.patchDeployment(t, name, fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image))
}

// complete reports "" when the Deployment's rollout is done: every pod
// updated and available, the status current and no old ReplicaSet with
// pods.
func (e *env) complete(t *testing.T, name string) string {
	d := e.getDeployment(t, name)
	n := *d.Spec.Replicas
	st := d.Status
	if st.ObservedGeneration < d.Generation || st.UpdatedReplicas != n || st.Replicas != n || st.AvailableReplicas != n {
		return fmt.Sprintf("deployment %s generation %d status %+v", name, d.Generation, st)
	}
	for _, rs := range e.replicaSets(t, selectorString(d.Spec.Selector.MatchLabels)) {
		if rs.Status.Replicas != 0 && *rs.Spec.Replicas != n {
			return fmt.Sprintf("replicaset %s still has %d replicas", rs.Name, rs.Status.Replicas)
		}
	}
	return ""
}

// rollOut marks pods ready until the Deployment's rollout completes,
// calling check (which may be nil) before every step.
func (e *env) rollOut(t *testing.T, name string, check func() string) {
	t.Helper()
	sel := "app=" + name
	e.eventually(t, 60*time.Second, func() string {
		if check != nil {
			if msg := check(); msg != "" {
				t.Fatal(msg)
			}
		}
		e.markAllReady(t, sel)
		return e.complete(t, name)
	})
}

// condition returns the Deployment's condition of type ct.
func condition(d *appsv1.Deployment, ct appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == ct {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

// waitCondition waits until the Deployment has condition ct with status
// and reason.
func (e *env) waitCondition(t *testing.T, name string, ct appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason string) {
	t.Helper()
	e.eventually(t, 30*time.Second, func() string {
		d := e.getDeployment(t, name)
		c := condition(d, ct)
		if c == nil || c.Status != status || c.Reason != reason {
			return fmt.Sprintf("condition %s: %+v, want %s %s", ct, c, status, reason)
		}
		return ""
	})
}

// waitObserved waits until the Deployment's status reflects its latest
// generation.
func (e *env) waitObserved(t *testing.T, name string) *appsv1.Deployment {
	t.Helper()
	var d *appsv1.Deployment
	e.eventually(t, 20*time.Second, func() string {
		d = e.getDeployment(t, name)
		if d.Status.ObservedGeneration < d.Generation {
			return fmt.Sprintf("observed generation %d < %d", d.Status.ObservedGeneration, d.Generation)
		}
		return ""
	})
	return d
}
