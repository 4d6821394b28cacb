package soak

import (
	"context"
	"fmt"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// background deletes dependents after their owner (the garbage
// collector's work).
func background() *meta.DeleteOptions {
	p := meta.DeletePropagationBackground
	return &meta.DeleteOptions{PropagationPolicy: &p}
}

// jobStep runs a Job of two pods to completion and deletes it; the pods
// of the last cycle's Job must be gone by now (garbage collection).
func (w *Workload) jobStep(ctx context.Context, k int) {
	jobs := w.set.Jobs.Namespace(ns)
	name := fmt.Sprintf("batch-%d", k)
	_, err := jobs.Create(ctx, job(ns, name, 2), meta.WriteOptions{})
	w.op(ctx, "create job", err)
	if err == nil {
		_ = w.waitFor(ctx, "job completes", func() error {
			j, err := jobs.Get(ctx, name, meta.GetOptions{})
			if err != nil {
				return err
			}
			if !jobComplete(j) || j.Status.Succeeded != 2 {
				return fmt.Errorf("succeeded %d, active %d, failed %d", j.Status.Succeeded, j.Status.Active, j.Status.Failed)
			}
			return nil
		})
		w.op(ctx, "delete job", jobs.Delete(ctx, name, background()))
	}
	if k == 0 {
		return
	}
	prev := fmt.Sprintf("batch-%d", k-1)
	_ = w.waitFor(ctx, "job pods garbage-collected", func() error {
		pods, err := w.set.Pods.Namespace(ns).List(ctx, meta.ListOptions{LabelSelector: "job-name=" + prev})
		if err != nil {
			return err
		}
		if n := len(pods.Items); n > 0 {
			return fmt.Errorf("%d pods of job %s left", n, prev)
		}
		return nil
	})
}

func jobComplete(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// configStep creates ConfigMaps and Secrets, updates each, reads one back,
// and deletes those of the last cycle.
func (w *Workload) configStep(ctx context.Context, k int) {
	cms, secrets := w.set.ConfigMaps.Namespace(ns), w.set.Secrets.Namespace(ns)
	for i := range churn {
		name := fmt.Sprintf("cm-%d-%d", k, i)
		cm, err := cms.Create(ctx, configMap(ns, name, "v1"), meta.WriteOptions{})
		w.op(ctx, "create configmap", err)
		if err == nil {
			cm.Data["v"] = "v2"
			_, err = cms.Update(ctx, cm, meta.WriteOptions{})
			w.op(ctx, "update configmap", err)
		}
		if i%3 != 0 {
			continue
		}
		sname := fmt.Sprintf("secret-%d-%d", k, i)
		s, err := secrets.Create(ctx, secret(ns, sname, "v1"), meta.WriteOptions{})
		w.op(ctx, "create secret", err)
		if err == nil {
			s.StringData = map[string]string{"v": "v2"}
			_, err = secrets.Update(ctx, s, meta.WriteOptions{})
			w.op(ctx, "update secret", err)
		}
	}
	_ = w.waitFor(ctx, "configmap update read back", func() error {
		cm, err := cms.Get(ctx, fmt.Sprintf("cm-%d-0", k), meta.GetOptions{})
		if err != nil {
			return err
		}
		if cm.Data["v"] != "v2" {
			return fmt.Errorf("value %q, want v2", cm.Data["v"])
		}
		return nil
	})
	if k == 0 {
		return
	}
	for i := range churn {
		w.op(ctx, "delete configmap", cms.Delete(ctx, fmt.Sprintf("cm-%d-%d", k-1, i), nil))
		if i%3 == 0 {
			w.op(ctx, "delete secret", secrets.Delete(ctx, fmt.Sprintf("secret-%d-%d", k-1, i), nil))
		}
	}
}

// serviceStep creates a ClusterIP Service and a LoadBalancer one, which
// the cloud controller manager must give an address, and deletes those
// of the last cycle.
func (w *Workload) serviceStep(ctx context.Context, k int) {
	svcs := w.set.Services.Namespace(ns)
	sel := map[string]string{"app": web}
	_, err := svcs.Create(ctx, service(ns, fmt.Sprintf("svc-%d", k), corev1.ServiceTypeClusterIP, sel), meta.WriteOptions{})
	w.op(ctx, "create service", err)
	lb := fmt.Sprintf("lb-%d", k)
	_, err = svcs.Create(ctx, service(ns, lb, corev1.ServiceTypeLoadBalancer, sel), meta.WriteOptions{})
	w.op(ctx, "create service", err)
	if err == nil {
		_ = w.waitFor(ctx, "load balancer provisioned", func() error {
			s, err := svcs.Get(ctx, lb, meta.GetOptions{})
			if err != nil {
				return err
			}
			if len(s.Status.LoadBalancer.Ingress) == 0 || s.Status.LoadBalancer.Ingress[0].IP == "" {
				return fmt.Errorf("no ingress address")
			}
			return nil
		})
	}
	if k > 0 {
		w.op(ctx, "delete service", svcs.Delete(ctx, fmt.Sprintf("svc-%d", k-1), nil))
		w.op(ctx, "delete service", svcs.Delete(ctx, fmt.Sprintf("lb-%d", k-1), nil))
	}
}

// tmpNS names cycle k's namespace.
func tmpNS(k int) string { return fmt.Sprintf("soak-%d", k) }

// namespaceStep makes a namespace with ConfigMaps, a Secret, a Service
// and a one-replica Deployment, deletes the last cycle's, and checks that
// the one deleted a cycle before that is gone with its contents.
func (w *Workload) namespaceStep(ctx context.Context, k int) {
	name := tmpNS(k)
	_, err := w.set.Namespaces.Create(ctx, namespace(name), meta.WriteOptions{})
	w.op(ctx, "create namespace", err)
	if err == nil {
		for i := range 3 {
			_, err := w.set.ConfigMaps.Namespace(name).Create(ctx, configMap(name, fmt.Sprintf("cm-%d", i), "v"), meta.WriteOptions{})
			w.op(ctx, "create configmap", err)
		}
		_, err = w.set.Secrets.Namespace(name).Create(ctx, secret(name, "s", "v"), meta.WriteOptions{})
		w.op(ctx, "create secret", err)
		_, err = w.set.Services.Namespace(name).Create(ctx, service(name, "svc", corev1.ServiceTypeClusterIP, map[string]string{"app": "d"}), meta.WriteOptions{})
		w.op(ctx, "create service", err)
		_, err = w.set.Deployments.Namespace(name).Create(ctx, deployment(name, "d", 1), meta.WriteOptions{})
		w.op(ctx, "create deployment", err)
	}
	if k >= 1 {
		w.op(ctx, "delete namespace", w.set.Namespaces.Delete(ctx, tmpNS(k-1), nil))
	}
	if k >= 2 {
		gone := tmpNS(k - 2)
		_ = w.waitFor(ctx, "namespace deletion completes", func() error {
			n, err := w.set.Namespaces.Get(ctx, gone, meta.GetOptions{})
			if err == nil {
				return fmt.Errorf("namespace %s still there (phase %s)", gone, n.Status.Phase)
			}
			return ignoreNotFound(err)
		})
	}
}
