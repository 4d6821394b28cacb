package client

import (
	"reflect"

	appsv1 "platform.io/client/api/apps/v1"
	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/rest"
)

// Set holds one typed client per resource the API server serves, none of
// them scoped to a namespace:
//
//	set.Pods.Namespace("default").Get(ctx, "web-0", meta.GetOptions{})
type Set struct {
	Namespaces      *Client[corev1.Namespace, *corev1.Namespace]
	Pods            *Client[corev1.Pod, *corev1.Pod]
	Nodes           *Client[corev1.Node, *corev1.Node]
	Services        *Client[corev1.Service, *corev1.Service]
	Endpoints       *Client[corev1.Endpoints, *corev1.Endpoints]
	ConfigMaps      *Client[corev1.ConfigMap, *corev1.ConfigMap]
	Secrets         *Client[corev1.Secret, *corev1.Secret]
	Events          *Client[corev1.Event, *corev1.Event]
	ServiceAccounts *Client[corev1.ServiceAccount, *corev1.ServiceAccount]
	LimitRanges     *Client[corev1.LimitRange, *corev1.LimitRange]
	ResourceQuotas  *Client[corev1.ResourceQuota, *corev1.ResourceQuota]

	Deployments         *Client[appsv1.Deployment, *appsv1.Deployment]
	ReplicaSets         *Client[appsv1.ReplicaSet, *appsv1.ReplicaSet]
	DaemonSets          *Client[appsv1.DaemonSet, *appsv1.DaemonSet]
	StatefulSets        *Client[appsv1.StatefulSet, *appsv1.StatefulSet]
	ControllerRevisions *Client[appsv1.ControllerRevision, *appsv1.ControllerRevision]

	Jobs            *Client[batchv1.Job, *batchv1.Job]
	CronJobs        *Client[batchv1.CronJob, *batchv1.CronJob]
	CronJobsV1beta1 *Client[batchv1beta1.CronJob, *batchv1beta1.CronJob]

	HorizontalPodAutoscalers   *Client[autoscalingv2.HorizontalPodAutoscaler, *autoscalingv2.HorizontalPodAutoscaler]
	HorizontalPodAutoscalersV1 *Client[autoscalingv1.HorizontalPodAutoscaler, *autoscalingv1.HorizontalPodAutoscaler]

	Leases *Client[coordinationv1.Lease, *coordinationv1.Lease]
}

// NewSet returns the clients of every served resource, all sending their
// requests through rc.
func NewSet(rc *rest.Client) *Set {
	s := &Set{}
	for _, b := range builtins() {
		b.attach(s, rc, b.res)
	}
	return s
}

// InformThrough returns s with every client's informer source set to the
// client of the same resource in o: writes and reads go out with s's
// credentials, while the shared informers declared through s list and watch
// with o's. A daemon whose parts act as separate identities (controller
// loops on their service accounts) keeps its informers its own, as upstream
// does: an informer is shared, so it must not carry one loop's rights.
func (s *Set) InformThrough(o *Set) *Set {
	out := *s
	dst, src := reflect.ValueOf(&out).Elem(), reflect.ValueOf(o).Elem()
	for i := range dst.NumField() {
		// Each field is a fresh pointer from NewSet; copy it before setting.
		c := reflect.New(dst.Field(i).Elem().Type())
		c.Elem().Set(dst.Field(i).Elem())
		c.Interface().(interface{ setInform(any) }).setInform(src.Field(i).Interface())
		dst.Field(i).Set(c)
	}
	return &out
}

// builtin is one row of the resource table: the descriptor, and how NewSet
// builds its client into a Set.
type builtin struct {
	res    Resource
	attach func(s *Set, rc *rest.Client, r Resource)
}

// row builds a descriptor.
func row(group, version, name, kind string, namespaced bool, subresources ...string) Resource {
	return Resource{Group: group, Version: version, Name: name, Kind: kind, Namespaced: namespaced, Subresources: subresources}
}

// builtins is the one table of served resources.
func builtins() []builtin {
	const (
		core, apps, batch, coord = corev1.GroupName, appsv1.GroupName, batchv1.GroupName, coordinationv1.GroupName
		status, scale            = SubresourceStatus, SubresourceScale
	)
	return []builtin{
		{row(core, "v1", "namespaces", "Namespace", false, status, SubresourceFinalize),
			func(s *Set, c *rest.Client, r Resource) { s.Namespaces = New[corev1.Namespace](c, r) }},
		{row(core, "v1", "pods", "Pod", true, status, SubresourceBinding),
			func(s *Set, c *rest.Client, r Resource) { s.Pods = New[corev1.Pod](c, r) }},
		{row(core, "v1", "nodes", "Node", false, status),
			func(s *Set, c *rest.Client, r Resource) { s.Nodes = New[corev1.Node](c, r) }},
		{row(core, "v1", "services", "Service", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.Services = New[corev1.Service](c, r) }},
		{row(core, "v1", "endpoints", "Endpoints", true),
			func(s *Set, c *rest.Client, r Resource) { s.Endpoints = New[corev1.Endpoints](c, r) }},
		{row(core, "v1", "configmaps", "ConfigMap", true),
			func(s *Set, c *rest.Client, r Resource) { s.ConfigMaps = New[corev1.ConfigMap](c, r) }},
		{row(core, "v1", "secrets", "Secret", true),
			func(s *Set, c *rest.Client, r Resource) { s.Secrets = New[corev1.Secret](c, r) }},
		{row(core, "v1", "events", "Event", true),
			func(s *Set, c *rest.Client, r Resource) { s.Events = New[corev1.Event](c, r) }},
		{row(core, "v1", "serviceaccounts", "ServiceAccount", true),
			func(s *Set, c *rest.Client, r Resource) { s.ServiceAccounts = New[corev1.ServiceAccount](c, r) }},
		{row(core, "v1", "limitranges", "LimitRange", true),
			func(s *Set, c *rest.Client, r Resource) { s.LimitRanges = New[corev1.LimitRange](c, r) }},
		{row(core, "v1", "resourcequotas", "ResourceQuota", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.ResourceQuotas = New[corev1.ResourceQuota](c, r) }},
		{row(apps, "v1", "deployments", "Deployment", true, status, scale),
			func(s *Set, c *rest.Client, r Resource) { s.Deployments = New[appsv1.Deployment](c, r) }},
		{row(apps, "v1", "replicasets", "ReplicaSet", true, status, scale),
			func(s *Set, c *rest.Client, r Resource) { s.ReplicaSets = New[appsv1.ReplicaSet](c, r) }},
		{row(apps, "v1", "daemonsets", "DaemonSet", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.DaemonSets = New[appsv1.DaemonSet](c, r) }},
		{row(apps, "v1", "statefulsets", "StatefulSet", true, status, scale),
			func(s *Set, c *rest.Client, r Resource) { s.StatefulSets = New[appsv1.StatefulSet](c, r) }},
		{row(apps, "v1", "controllerrevisions", "ControllerRevision", true),
			func(s *Set, c *rest.Client, r Resource) { s.ControllerRevisions = New[appsv1.ControllerRevision](c, r) }},
		{row(batch, "v1", "jobs", "Job", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.Jobs = New[batchv1.Job](c, r) }},
		{row(batch, "v1", "cronjobs", "CronJob", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.CronJobs = New[batchv1.CronJob](c, r) }},
		{row(batch, "v1beta1", "cronjobs", "CronJob", true, status),
			func(s *Set, c *rest.Client, r Resource) { s.CronJobsV1beta1 = New[batchv1beta1.CronJob](c, r) }},
		{row(autoscalingv2.GroupName, "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true, status),
			func(s *Set, c *rest.Client, r Resource) {
				s.HorizontalPodAutoscalers = New[autoscalingv2.HorizontalPodAutoscaler](c, r)
			}},
		{row(autoscalingv1.GroupName, "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true, status),
			func(s *Set, c *rest.Client, r Resource) {
				s.HorizontalPodAutoscalersV1 = New[autoscalingv1.HorizontalPodAutoscaler](c, r)
			}},
		{row(coord, "v1", "leases", "Lease", true),
			func(s *Set, c *rest.Client, r Resource) { s.Leases = New[coordinationv1.Lease](c, r) }},
	}
}
