package apiserver

import (
	"fmt"
	"strings"
)

// sample is a valid object of one resource, used by the generic tests.
type sample struct {
	// path is the collection path with %s for the namespace.
	path       string
	kind       string
	apiVersion string
	namespaced bool
	hasStatus  bool
	// body returns the manifest of an object named name.
	body func(name string) string
	// change returns a field path and a JSON merge patch that changes the
	// spec-like part of the object.
	change string
}

const podSpec = `{"containers":[{"name":"app","image":"nginx:1.25","ports":[{"containerPort":80}],"env":[{"name":"A","value":"1"}]},{"name":"side","image":"busybox"}]}`

func templ(labels string) string {
	return `{"metadata":{"labels":` + labels + `},"spec":` + podSpec + `}`
}

var samples = []sample{
	{path: "/api/v1/namespaces", kind: "Namespace", apiVersion: "v1", hasStatus: true,
		body:   func(n string) string { return `{"metadata":{"name":"` + n + `"}}` },
		change: `{"metadata":{"labels":{"changed":"yes"}}}`},
	{path: "/api/v1/namespaces/%s/pods", kind: "Pod", apiVersion: "v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `","labels":{"app":"x"}},"spec":` + podSpec + `}`
		},
		change: `{"spec":{"activeDeadlineSeconds":60}}`},
	{path: "/api/v1/namespaces/%s/configmaps", kind: "ConfigMap", apiVersion: "v1", namespaced: true,
		body:   func(n string) string { return `{"metadata":{"name":"` + n + `"},"data":{"a":"b"}}` },
		change: `{"data":{"a":"c"}}`},
	{path: "/api/v1/namespaces/%s/secrets", kind: "Secret", apiVersion: "v1", namespaced: true,
		body:   func(n string) string { return `{"metadata":{"name":"` + n + `"},"data":{"a":"Yg=="}}` },
		change: `{"data":{"a":"Yw=="}}`},
	{path: "/api/v1/namespaces/%s/services", kind: "Service", apiVersion: "v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"selector":{"app":"x"},"ports":[{"port":80}]}}`
		},
		change: `{"spec":{"selector":{"app":"y"}}}`},
	{path: "/api/v1/namespaces/%s/endpoints", kind: "Endpoints", apiVersion: "v1", namespaced: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"subsets":[{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"port":80}]}]}`
		},
		change: `{"subsets":[{"addresses":[{"ip":"10.1.2.4"}],"ports":[{"port":80}]}]}`},
	{path: "/api/v1/namespaces/%s/events", kind: "Event", apiVersion: "v1", namespaced: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"involvedObject":{"kind":"Pod","name":"p","namespace":"NS"},"reason":"Test","message":"hello","type":"Normal"}`
		},
		change: `{"message":"changed"}`},
	{path: "/api/v1/namespaces/%s/serviceaccounts", kind: "ServiceAccount", apiVersion: "v1", namespaced: true,
		body:   func(n string) string { return `{"metadata":{"name":"` + n + `"}}` },
		change: `{"automountServiceAccountToken":false}`},
	{path: "/api/v1/nodes", kind: "Node", apiVersion: "v1", hasStatus: true,
		body:   func(n string) string { return `{"metadata":{"name":"` + n + `"},"spec":{}}` },
		change: `{"spec":{"unschedulable":true}}`},
	{path: "/apis/apps/v1/namespaces/%s/deployments", kind: "Deployment", apiVersion: "apps/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"x"}},"template":` + templ(`{"app":"x"}`) + `}}`
		},
		change: `{"spec":{"replicas":3}}`},
	{path: "/apis/apps/v1/namespaces/%s/replicasets", kind: "ReplicaSet", apiVersion: "apps/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"x"}},"template":` + templ(`{"app":"x"}`) + `}}`
		},
		change: `{"spec":{"replicas":3}}`},
	{path: "/apis/apps/v1/namespaces/%s/daemonsets", kind: "DaemonSet", apiVersion: "apps/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"selector":{"matchLabels":{"app":"x"}},"template":` + templ(`{"app":"x"}`) + `}}`
		},
		change: `{"spec":{"minReadySeconds":5}}`},
	{path: "/apis/apps/v1/namespaces/%s/statefulsets", kind: "StatefulSet", apiVersion: "apps/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"replicas":1,"serviceName":"svc","selector":{"matchLabels":{"app":"x"}},"template":` + templ(`{"app":"x"}`) + `}}`
		},
		change: `{"spec":{"replicas":2}}`},
	{path: "/apis/batch/v1/namespaces/%s/jobs", kind: "Job", apiVersion: "batch/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`
		},
		change: `{"spec":{"backoffLimit":2}}`},
	{path: "/apis/batch/v1/namespaces/%s/cronjobs", kind: "CronJob", apiVersion: "batch/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}`
		},
		change: `{"spec":{"schedule":"*/10 * * * *"}}`},
	{path: "/apis/batch/v1beta1/namespaces/%s/cronjobs", kind: "CronJob", apiVersion: "batch/v1beta1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"schedule":"@hourly","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}`
		},
		change: `{"spec":{"suspend":true}}`},
	{path: "/apis/autoscaling/v2/namespaces/%s/horizontalpodautoscalers", kind: "HorizontalPodAutoscaler", apiVersion: "autoscaling/v2", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":4}}`
		},
		change: `{"spec":{"maxReplicas":6}}`},
	{path: "/apis/autoscaling/v1/namespaces/%s/horizontalpodautoscalers", kind: "HorizontalPodAutoscaler", apiVersion: "autoscaling/v1", namespaced: true, hasStatus: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":4,"targetCPUUtilizationPercentage":60}}`
		},
		change: `{"spec":{"maxReplicas":6}}`},
	{path: "/apis/coordination.platform.io/v1/namespaces/%s/leases", kind: "Lease", apiVersion: "coordination.platform.io/v1", namespaced: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15}}`
		},
		change: `{"spec":{"holderIdentity":"b"}}`},
	{path: "/apis/rbac.authorization.platform.io/v1/namespaces/%s/roles", kind: "Role", apiVersion: "rbac.authorization.platform.io/v1", namespaced: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}`
		},
		change: `{"rules":[{"verbs":["list"],"apiGroups":[""],"resources":["pods"]}]}`},
	{path: "/apis/rbac.authorization.platform.io/v1/clusterroles", kind: "ClusterRole", apiVersion: "rbac.authorization.platform.io/v1",
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}`
		},
		change: `{"rules":[{"verbs":["get"],"nonResourceURLs":["/version"]}]}`},
	{path: "/apis/rbac.authorization.platform.io/v1/namespaces/%s/rolebindings", kind: "RoleBinding", apiVersion: "rbac.authorization.platform.io/v1", namespaced: true,
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"a"}]}`
		},
		change: `{"subjects":[{"kind":"Group","name":"g"}]}`},
	{path: "/apis/rbac.authorization.platform.io/v1/clusterrolebindings", kind: "ClusterRoleBinding", apiVersion: "rbac.authorization.platform.io/v1",
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"roleRef":{"apiGroup":"rbac.authorization.platform.io","kind":"ClusterRole","name":"view"},"subjects":[{"kind":"ServiceAccount","name":"s","namespace":"NS"}]}`
		},
		change: `{"subjects":[{"kind":"User","name":"u"}]}`},
	{path: "/apis/scheduling.platform.io/v1/priorityclasses", kind: "PriorityClass", apiVersion: "scheduling.platform.io/v1",
		body: func(n string) string {
			return `{"metadata":{"name":"` + n + `"},"value":1000,"description":"a sample"}`
		},
		change: `{"description":"changed"}`},
}

// collection returns the collection path in namespace ns.
func (s sample) collection(ns string) string {
	if s.namespaced {
		return fmt.Sprintf(s.path, ns)
	}
	return s.path
}

// object returns the manifest with the namespace placeholder filled.
func (s sample) object(name, ns string) string {
	return strings.ReplaceAll(s.body(name), `"NS"`, `"`+ns+`"`)
}

func (s sample) name() string {
	return strings.ToLower(s.kind) + "-" + strings.ReplaceAll(strings.ReplaceAll(s.apiVersion, "/", "-"), ".", "-")
}
