package soak

import (
	appsv1 "platform.io/client/api/apps/v1"
	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// Builders of the workload's objects.

// image is the i-th image of the three the rollouts cycle through: a
// Deployment keeps a ReplicaSet per template, so their number stays
// bounded.
func image(i int) string {
	return [...]string{"registry.platform.io/pause:3.8", "registry.platform.io/pause:3.9", "registry.platform.io/pause:3.10"}[i%3]
}

func podTemplate(labels map[string]string, image string) corev1.PodTemplateSpec {
	grace := int64(0)
	return corev1.PodTemplateSpec{
		ObjectMeta: meta.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{TerminationGracePeriodSeconds: &grace,
			Containers: []corev1.Container{{Name: "main", Image: image}}},
	}
}

func deployment(ns, name string, replicas int32) *appsv1.Deployment {
	l := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &meta.LabelSelector{MatchLabels: l},
			Template: podTemplate(l, image(0)),
		},
	}
}

func jobSpec(completions int32) batchv1.JobSpec {
	backoff := int32(2)
	t := podTemplate(nil, "registry.platform.io/busybox:1.36")
	t.Spec.RestartPolicy = corev1.RestartPolicyNever
	return batchv1.JobSpec{Completions: &completions, Parallelism: &completions, BackoffLimit: &backoff, Template: t}
}

func job(ns, name string, completions int32) *batchv1.Job {
	return &batchv1.Job{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns}, Spec: jobSpec(completions)}
}

// cronJob runs a one-pod Job every minute and keeps the last two.
func cronJob(ns, name string) *batchv1.CronJob {
	keep := int32(2)
	return &batchv1.CronJob{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: batchv1.CronJobSpec{
			Schedule: "*/1 * * * *", ConcurrencyPolicy: batchv1.ForbidConcurrent,
			SuccessfulJobsHistoryLimit: &keep, FailedJobsHistoryLimit: &keep,
			JobTemplate: batchv1.JobTemplateSpec{Spec: jobSpec(1)},
		},
	}
}

func service(ns, name string, typ corev1.ServiceType, selector map[string]string) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: corev1.ServiceSpec{Type: typ, Selector: selector,
			Ports: []corev1.ServicePort{{Protocol: corev1.ProtocolTCP, Port: 80, TargetPort: intstr.FromInt(8080)}}},
	}
}

func configMap(ns, name, value string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"v": value}}
}

func secret(ns, name, value string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns}, StringData: map[string]string{"v": value}}
}

func namespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"soak": "true"}}}
}
