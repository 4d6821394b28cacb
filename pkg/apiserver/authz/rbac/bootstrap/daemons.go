package bootstrap

import rbacv1 "platform.io/client/api/rbac/v1"

// Lock names: each daemon's default --leader-elect-resource-name, the
// Lease and Endpoints it holds in platform-system.
const (
	schedulerLock = "platform-scheduler"
	managerLock   = "platform-controller-manager"
	cloudLock     = "cloud-controller-manager"
	authConfigMap = "extension-apiserver-authentication"
)

// daemonBase is what every daemon does besides its work: hold its lock
// (create, then get and update that one object, as a Lease and an
// Endpoints for the default endpointsleases lock), record events, and
// check callers of its secure port (TokenReview, SubjectAccessReview, and
// reading the API server's client CA from its ConfigMap).
func daemonBase(lock string) []ruleBuilder {
	return []ruleBuilder{
		rule("create").groups(coord).resources("leases"),
		rule("get", "update").groups(coord).resources("leases").names(lock),
		rule("create").groups(legacy).resources("endpoints"),
		rule("get", "update").groups(legacy).resources("endpoints").names(lock),
		eventsRule(),
		rule("create").groups(authnG).resources("tokenreviews"),
		rule("create").groups(authzG).resources("subjectaccessreviews"),
		rule("get", "list", "watch").groups(legacy).resources("configmaps").names(authConfigMap),
	}
}

// daemonRoles are the roles of the scheduler, controller manager and cloud
// controller manager, each bound to the user of the same name.
func daemonRoles() []rbacv1.ClusterRole {
	sched := append(daemonBase(schedulerLock),
		rule(read...).groups(legacy).resources("pods", "nodes", "namespaces"),
		rule("delete").groups(legacy).resources("pods"),
		rule("create").groups(legacy).resources("pods/binding"),
		rule("patch", "update").groups(legacy).resources("pods/status"),
	)
	// Until each loop runs with its own service account, the controller
	// manager needs what all its loops need, and to create those accounts
	// and their tokens for --use-service-account-credentials.
	cm := append(daemonBase(managerLock),
		rule("get", "create").groups(legacy).resources("serviceaccounts"),
		rule("create").groups(legacy).resources("serviceaccounts/token"),
	)
	var loops []rbacv1.PolicyRule
	for _, c := range Controllers {
		loops = append(loops, c.Rules...)
	}
	ccm := append(daemonBase(cloudLock),
		rule("get", "list", "watch", "update", "patch", "delete").groups(legacy).resources("nodes"),
		rule("patch", "update").groups(legacy).resources("nodes/status"),
		rule("list", "watch", "patch", "update").groups(legacy).resources("services"),
		rule("patch", "update").groups(legacy).resources("services/status"),
		rule("get", "create").groups(legacy).resources("serviceaccounts"),
		rule("create").groups(legacy).resources("serviceaccounts/token"),
	)
	return []rbacv1.ClusterRole{
		clusterRole(SchedulerUser, rules(sched...)),
		clusterRole(ControllerManagerUser, append(rules(cm...), loops...)),
		clusterRole(CloudControllerManagerUser, rules(ccm...)),
	}
}

// controllerRoles are system:controller:<account>, one per loop.
func controllerRoles() []rbacv1.ClusterRole {
	out := make([]rbacv1.ClusterRole, len(Controllers))
	for i, c := range Controllers {
		out[i] = clusterRole("system:controller:"+c.Account, c.Rules)
	}
	return out
}
