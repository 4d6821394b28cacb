package bootstrap

import rbacv1 "platform.io/client/api/rbac/v1"

// Controller is one loop of the controller manager: its name in
// --controllers, the service account it runs as with
// --use-service-account-credentials (upstream's name, in platform-system),
// and the rules of its role system:controller:<account>.
type Controller struct {
	Loop    string
	Account string
	Rules   []rbacv1.PolicyRule
}

// Controllers has one entry per loop of cmd/controller-manager/app.
var Controllers = []Controller{
	{"deployment", "deployment-controller", rules(
		rule("get", "list", "watch", "update").groups(apps).resources("deployments"),
		rule("update").groups(apps).resources("deployments/status", "deployments/finalizers"),
		rule("get", "list", "watch", "create", "update", "patch", "delete").groups(apps).resources("replicasets"),
		rule("get", "list", "watch", "update").groups(legacy).resources("pods"),
		eventsRule(),
	)},
	{"replicaset", "replicaset-controller", rules(
		rule("get", "list", "watch", "update").groups(apps).resources("replicasets"),
		rule("update").groups(apps).resources("replicasets/status", "replicasets/finalizers"),
		rule("list", "watch", "patch", "create", "delete").groups(legacy).resources("pods"),
		eventsRule(),
	)},
	{"statefulset", "statefulset-controller", rules(
		rule("list", "watch").groups(legacy).resources("pods"),
		rule("get", "list", "watch").groups(apps).resources("statefulsets"),
		rule("update").groups(apps).resources("statefulsets/status", "statefulsets/finalizers"),
		rule("get", "create", "delete", "update", "patch").groups(legacy).resources("pods"),
		rule("get", "list", "watch", "create", "delete", "update", "patch").groups(apps).resources("controllerrevisions"),
		eventsRule(),
	)},
	{"daemonset", "daemon-set-controller", rules(
		rule("get", "list", "watch").groups(apps).resources("daemonsets"),
		rule("update").groups(apps).resources("daemonsets/status", "daemonsets/finalizers"),
		rule("get", "list", "watch").groups(legacy).resources("nodes"),
		rule("list", "watch", "create", "delete", "patch").groups(legacy).resources("pods"),
		rule("create").groups(legacy).resources("pods/binding"),
		rule("get", "list", "watch", "create", "delete", "update", "patch").groups(apps).resources("controllerrevisions"),
		eventsRule(),
	)},
	{"job", "job-controller", rules(
		rule("get", "list", "watch", "update", "patch").groups(batch).resources("jobs"),
		rule("update").groups(batch).resources("jobs/status", "jobs/finalizers"),
		rule("list", "watch", "create", "delete", "patch").groups(legacy).resources("pods"),
		eventsRule(),
	)},
	{"cronjob", "cronjob-controller", rules(
		rule("get", "list", "watch", "update").groups(batch).resources("cronjobs"),
		rule("get", "list", "watch", "create", "update", "delete", "patch").groups(batch).resources("jobs"),
		rule("update").groups(batch).resources("cronjobs/status", "cronjobs/finalizers"),
		rule("list", "delete").groups(legacy).resources("pods"),
		eventsRule(),
	)},
	{"ttl-after-finished", "ttl-after-finished-controller", rules(
		rule("get", "list", "watch", "delete").groups(batch).resources("jobs"),
		eventsRule(),
	)},
	{"endpoint", "endpoint-controller", rules(
		rule("get", "list", "watch").groups(legacy).resources("services", "pods"),
		// Its endpoints informer watches them too (upstream's reads them
		// through the manager's own informers and has no watch here).
		rule("get", "list", "watch", "create", "update", "delete").groups(legacy).resources("endpoints"),
		eventsRule(),
	)},
	{"garbagecollector", "generic-garbage-collector", rules(
		rule("get", "list", "watch", "patch", "update", "delete").groups("*").resources("*"),
	)},
	{"namespace", "namespace-controller", rules(
		rule("get", "list", "watch", "delete").groups(legacy).resources("namespaces"),
		rule("update").groups(legacy).resources("namespaces/finalize", "namespaces/status"),
		rule("get", "list", "delete", "deletecollection").groups("*").resources("*"),
	)},
	{"serviceaccount", "service-account-controller", rules(
		rule("create").groups(legacy).resources("serviceaccounts"),
		eventsRule(),
	)},
	{"nodelifecycle", "node-controller", rules(
		rule("get", "list", "update", "delete", "patch").groups(legacy).resources("nodes"),
		rule("patch", "update").groups(legacy).resources("nodes/status", "pods/status"),
		rule("list", "delete").groups(legacy).resources("pods"),
		rule("get", "list", "watch").groups(coord).resources("leases"),
		eventsRule(),
	)},
	{"nodeipam", "node-ipam-controller", rules(
		rule("get", "list", "watch", "update").groups(legacy).resources("nodes"),
		eventsRule(),
	)},
	{"root-ca-cert-publisher", "root-ca-cert-publisher", rules(
		rule("create", "update").groups(legacy).resources("configmaps"),
		rule("list", "watch").groups(legacy).resources("configmaps", "namespaces"),
		eventsRule(),
	)},
	{"horizontalpodautoscaling", "horizontal-pod-autoscaler", rules(
		rule("get", "list", "watch").groups("autoscaling").resources("horizontalpodautoscalers"),
		rule("update").groups("autoscaling").resources("horizontalpodautoscalers/status"),
		rule("get", "update").groups("*").resources("*/scale"),
		rule("list", "watch").groups(legacy).resources("pods"),
		rule("list").groups("metrics.platform.io", "metrics.k8s.io").resources("pods"),
		eventsRule(),
	)},
	{"resourcequota", "resourcequota-controller", rules(
		rule("list", "watch").groups("*").resources("*"),
		rule("update").groups(legacy).resources("resourcequotas/status"),
		eventsRule(),
	)},
	{"podgc", "pod-garbage-collector", rules(
		rule("list", "watch", "delete").groups(legacy).resources("pods"),
		rule("get", "list", "watch").groups(legacy).resources("nodes"),
		rule("patch").groups(legacy).resources("pods/status"),
	)},
}
