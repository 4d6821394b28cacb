package bootstrap

import (
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"
)

// Well-known users and groups.
const (
	SystemMasters      = "system:masters"
	AllAuthenticated   = "system:authenticated"
	AllUnauthenticated = "system:unauthenticated"
	NodesGroup         = "system:nodes"
	// MonitoringGroup, as upstream, may read /metrics and the health
	// paths; its role and binding have the same name.
	MonitoringGroup            = "system:monitoring"
	SchedulerUser              = "system:platform-scheduler"
	ControllerManagerUser      = "system:platform-controller-manager"
	CloudControllerManagerUser = "system:platform-cloud-controller-manager"
	// NodeCommonRole is bound to every node (group system:nodes): the
	// cluster-wide reads and the registration mode Node leaves to RBAC.
	NodeCommonRole = "system:node-common"
	// SystemNamespace holds the daemons' locks and the controllers'
	// service accounts.
	SystemNamespace = "platform-system"
)

// Labels and annotations of bootstrap objects.
const (
	bootstrappingLabel = "platform.io/bootstrapping"
	aggregateToAdmin   = "rbac.authorization.platform.io/aggregate-to-admin"
	aggregateToEdit    = "rbac.authorization.platform.io/aggregate-to-edit"
	aggregateToView    = "rbac.authorization.platform.io/aggregate-to-view"
)

// Policy is the whole default policy.
type Policy struct {
	ClusterRoles        []rbacv1.ClusterRole
	ClusterRoleBindings []rbacv1.ClusterRoleBinding
	// Roles and RoleBindings are namespaced (the daemons' lock objects).
	Roles        []rbacv1.Role
	RoleBindings []rbacv1.RoleBinding
}

// Default returns the default policy.
func Default() Policy {
	p := Policy{}
	p.ClusterRoles = append(p.ClusterRoles, userRoles()...)
	p.ClusterRoles = append(p.ClusterRoles, daemonRoles()...)
	p.ClusterRoles = append(p.ClusterRoles, controllerRoles()...)
	p.ClusterRoles = append(p.ClusterRoles, aggregationClusterRoles()...)
	p.Roles = append(p.Roles, aggregationRoles()...)
	p.ClusterRoleBindings = append(p.ClusterRoleBindings,
		clusterBinding("cluster-admin", "cluster-admin", group(SystemMasters)),
		clusterBinding("system:discovery", "system:discovery", group(AllAuthenticated)),
		clusterBinding("system:basic-user", "system:basic-user", group(AllAuthenticated)),
		clusterBinding("system:public-info-viewer", "system:public-info-viewer", group(AllAuthenticated), group(AllUnauthenticated)),
		clusterBinding(MonitoringGroup, MonitoringGroup, group(MonitoringGroup)),
		clusterBinding(NodeCommonRole, NodeCommonRole, group(NodesGroup)),
		clusterBinding(SchedulerUser, SchedulerUser, user(SchedulerUser)),
		clusterBinding(ControllerManagerUser, ControllerManagerUser, user(ControllerManagerUser)),
		clusterBinding(CloudControllerManagerUser, CloudControllerManagerUser, user(CloudControllerManagerUser)),
	)
	for _, c := range Controllers {
		name := "system:controller:" + c.Account
		p.ClusterRoleBindings = append(p.ClusterRoleBindings, clusterBinding(name, name, serviceAccount(SystemNamespace, c.Account)))
	}
	return p
}

func objectMeta(name string, labels map[string]string) rbacv1.ClusterRole {
	l := map[string]string{bootstrappingLabel: "rbac-defaults"}
	for k, v := range labels {
		l[k] = v
	}
	cr := rbacv1.ClusterRole{}
	cr.Name, cr.Labels = name, l
	cr.Annotations = map[string]string{rbacv1.AutoUpdateAnnotationKey: "true"}
	return cr
}

func clusterRole(name string, r []rbacv1.PolicyRule) rbacv1.ClusterRole {
	cr := objectMeta(name, nil)
	cr.Rules = r
	return cr
}

func labelled(name string, labels map[string]string, r []rbacv1.PolicyRule) rbacv1.ClusterRole {
	cr := objectMeta(name, labels)
	cr.Rules = r
	return cr
}

func aggregated(name, selectorLabel string, labels map[string]string) rbacv1.ClusterRole {
	cr := objectMeta(name, labels)
	cr.AggregationRule = &rbacv1.AggregationRule{ClusterRoleSelectors: []meta.LabelSelector{{MatchLabels: map[string]string{selectorLabel: "true"}}}}
	return cr
}

func clusterBinding(name, role string, subjects ...rbacv1.Subject) rbacv1.ClusterRoleBinding {
	b := rbacv1.ClusterRoleBinding{Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: rbacG, Kind: "ClusterRole", Name: role}}
	b.Name = name
	b.Labels = map[string]string{bootstrappingLabel: "rbac-defaults"}
	b.Annotations = map[string]string{rbacv1.AutoUpdateAnnotationKey: "true"}
	return b
}

func user(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacG, Name: name}
}

func group(name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacG, Name: name}
}

func serviceAccount(ns, name string) rbacv1.Subject {
	return rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: name}
}

// userRoles are the roles for people and for every client.
func userRoles() []rbacv1.ClusterRole {
	return []rbacv1.ClusterRole{
		clusterRole("cluster-admin", rules(
			rule("*").groups("*").resources("*"),
			rule("*").urls("*"),
		)),
		clusterRole("system:discovery", rules(
			rule("get").urls("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"),
		)),
		clusterRole("system:public-info-viewer", rules(
			rule("get").urls("/healthz", "/livez", "/readyz", "/version", "/version/"),
		)),
		// Scraping metrics and health of the API server and the daemons'
		// secure ports (delegated authorization asks for these paths).
		clusterRole(MonitoringGroup, rules(
			rule("get").urls("/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*"),
		)),
		clusterRole("system:basic-user", rules(
			rule("create").groups(authzG).resources("selfsubjectaccessreviews", "selfsubjectrulesreviews"),
			rule("create").groups(authnG).resources("selfsubjectreviews"),
		)),
		aggregated("admin", aggregateToAdmin, nil),
		aggregated("edit", aggregateToEdit, map[string]string{aggregateToAdmin: "true"}),
		aggregated("view", aggregateToView, map[string]string{aggregateToEdit: "true"}),
		labelled("system:aggregate-to-admin", map[string]string{aggregateToAdmin: "true"}, rules(
			rule("create").groups(authzG).resources("localsubjectaccessreviews"),
			rule(readWrite...).groups(rbacG).resources("roles", "rolebindings"),
		)),
		labelled("system:aggregate-to-edit", map[string]string{aggregateToEdit: "true"}, rules(
			rule(read...).groups(legacy).resources("secrets"),
			rule("impersonate").groups(legacy).resources("serviceaccounts"),
			rule(write...).groups(legacy).resources("pods", "configmaps", "events", "secrets", "serviceaccounts", "services", "endpoints"),
			rule("create").groups(legacy).resources("serviceaccounts/token", "pods/eviction"),
			rule(write...).groups(apps).resources("daemonsets", "deployments", "deployments/rollback", "deployments/scale",
				"replicasets", "replicasets/scale", "statefulsets", "statefulsets/scale"),
			rule(write...).groups(batch).resources("cronjobs", "jobs"),
			rule(write...).groups(coord).resources("leases"),
		)),
		labelled("system:aggregate-to-view", map[string]string{aggregateToView: "true"}, rules(
			rule(read...).groups(legacy).resources("pods", "pods/status", "pods/log", "serviceaccounts", "services", "services/status",
				"endpoints", "configmaps", "events", "namespaces", "namespaces/status",
				"limitranges", "resourcequotas", "resourcequotas/status"),
			rule(read...).groups(apps).resources("controllerrevisions", "daemonsets", "daemonsets/status", "deployments", "deployments/scale",
				"deployments/status", "replicasets", "replicasets/scale", "replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status"),
			rule(read...).groups(batch).resources("cronjobs", "cronjobs/status", "jobs", "jobs/status"),
			rule(read...).groups(coord).resources("leases"),
		)),
		clusterRole("system:node", rules(
			rule("create", "get", "list", "watch", "update", "patch").groups(legacy).resources("nodes"),
			rule("update", "patch").groups(legacy).resources("nodes/status"),
			rule(read...).groups(legacy).resources("pods", "services", "secrets", "configmaps", "serviceaccounts"),
			rule("create", "delete").groups(legacy).resources("pods"),
			rule("update", "patch").groups(legacy).resources("pods/status"),
			rule("create").groups(legacy).resources("pods/eviction", "serviceaccounts/token"),
			eventsRule(),
			rule("get", "create", "update", "patch", "delete").groups(coord).resources("leases"),
			rule("create").groups(authnG).resources("tokenreviews"),
			rule("create").groups(authzG).resources("subjectaccessreviews", "localsubjectaccessreviews"),
			rule("create", "get", "list", "watch").groups(certs).resources("certificatesigningrequests"),
		)),
		// What every node needs beyond its own objects, which mode Node
		// grants: watching pods to see those bound to it, and
		// registering its Node. Nothing here reads a secret or writes
		// another node's objects.
		clusterRole(NodeCommonRole, rules(
			rule("list", "watch").groups(legacy).resources("pods"),
			rule("create", "list", "watch").groups(legacy).resources("nodes"),
		)),
		clusterRole("system:node-bootstrapper", rules(
			rule("create", "get", "list", "watch").groups(certs).resources("certificatesigningrequests"),
		)),
	}
}
