package bootstrap

// Need is one request a daemon makes: verb on group/resource[/sub]
// (named, in namespace, when the daemon only ever touches one object), or
// a non-resource path.
type Need struct {
	Verb, Group, Resource, Subresource, Namespace, Name string
	Path                                                string
}

func need(verb, group, resource string) Need {
	return Need{Verb: verb, Group: group, Resource: resource}
}

func needSub(verb, group, resource, sub string) Need {
	return Need{Verb: verb, Group: group, Resource: resource, Subresource: sub}
}

func needs(verbs []string, group string, resources ...string) []Need {
	var out []Need
	for _, r := range resources {
		for _, v := range verbs {
			out = append(out, need(v, group, r))
		}
	}
	return out
}

// daemonNeeds is what every daemon does with the lock named lock: leader
// election (Lease and Endpoints, read, created, renewed), events, and
// delegated authentication and authorization of its secure port.
func daemonNeeds(lock string) []Need {
	var out []Need
	for _, r := range []struct{ group, resource string }{{coord, "leases"}, {legacy, "endpoints"}} {
		out = append(out,
			Need{Verb: "get", Group: r.group, Resource: r.resource, Namespace: SystemNamespace, Name: lock},
			Need{Verb: "create", Group: r.group, Resource: r.resource, Namespace: SystemNamespace},
			Need{Verb: "update", Group: r.group, Resource: r.resource, Namespace: SystemNamespace, Name: lock})
	}
	out = append(out, needs([]string{"create", "update", "patch"}, legacy, "events")...)
	return append(out,
		need("create", authnG, "tokenreviews"),
		need("create", authzG, "subjectaccessreviews"),
		Need{Verb: "get", Group: legacy, Resource: "configmaps", Namespace: "platform-system", Name: authConfigMap},
	)
}

// Needs lists, per role, the requests the daemon or loop makes in this
// repository (read from its informers and its client calls); the test
// checks that each role allows every one of them. A new call in a daemon
// belongs here first.
func Needs() map[string][]Need {
	m := map[string][]Need{}
	m[SchedulerUser] = append(daemonNeeds(schedulerLock), append(needs(read, legacy, "pods", "nodes", "namespaces"),
		need("get", legacy, "pods"),    // schedule_one re-reads a pod before binding
		need("delete", legacy, "pods"), // preemption deletes victims
		needSub("create", legacy, "pods", "binding"),
		needSub("patch", legacy, "pods", "status"), // unschedulable condition, nominated node
	)...)
	loops := map[string][]Need{
		"deployment": append(needs([]string{"get", "list", "watch", "update"}, apps, "deployments"),
			append(needs([]string{"get", "list", "watch", "create", "update", "patch", "delete"}, apps, "replicasets"),
				needSub("update", apps, "deployments", "status"), need("list", legacy, "pods"), need("watch", legacy, "pods"))...),
		"replicaset": append(needs([]string{"get", "list", "watch"}, apps, "replicasets"),
			append(needs([]string{"list", "watch", "create", "delete", "patch"}, legacy, "pods"), needSub("update", apps, "replicasets", "status"))...),
		"statefulset": append(needs([]string{"get", "list", "watch"}, apps, "statefulsets"),
			append(needs([]string{"list", "watch", "create", "delete", "patch"}, legacy, "pods"),
				append(needs([]string{"list", "watch", "create", "update", "patch", "delete"}, apps, "controllerrevisions"),
					needSub("update", apps, "statefulsets", "status"))...)...),
		"daemonset": append(needs([]string{"get", "list", "watch"}, apps, "daemonsets"),
			append(needs([]string{"list", "watch", "create", "delete", "patch"}, legacy, "pods"),
				append(needs([]string{"list", "watch", "create", "update", "patch", "delete"}, apps, "controllerrevisions"),
					append(needs(read, legacy, "nodes"), needSub("update", apps, "daemonsets", "status"))...)...)...),
		"job": append(needs([]string{"list", "watch", "update"}, batch, "jobs"),
			append(needs([]string{"list", "watch", "create", "delete", "patch"}, legacy, "pods"), needSub("update", batch, "jobs", "status"))...),
		"cronjob": append(needs([]string{"get", "list", "watch"}, batch, "cronjobs"),
			append(needs([]string{"get", "list", "watch", "create", "delete"}, batch, "jobs"), needSub("update", batch, "cronjobs", "status"))...),
		"ttl-after-finished": needs([]string{"get", "list", "watch", "delete"}, batch, "jobs"),
		"endpoint": append(needs(read, legacy, "services", "pods"),
			needs([]string{"list", "watch", "create", "update", "delete"}, legacy, "endpoints")...),
		"garbagecollector": append(needs([]string{"list", "watch", "get", "patch", "delete"}, apps, "replicasets", "deployments"),
			needs([]string{"list", "watch", "get", "patch", "delete"}, legacy, "pods", "configmaps")...),
		"namespace": append(needs([]string{"get", "list", "watch", "delete"}, legacy, "namespaces"),
			append(needs([]string{"list", "deletecollection"}, batch, "jobs"),
				needSub("update", legacy, "namespaces", "finalize"), needSub("update", legacy, "namespaces", "status"))...),
		"serviceaccount": needs([]string{"create"}, legacy, "serviceaccounts"),
		"nodelifecycle": append(needs([]string{"get", "list", "update"}, legacy, "nodes"),
			append(needs([]string{"list", "delete"}, legacy, "pods"),
				needSub("update", legacy, "nodes", "status"), needSub("update", legacy, "pods", "status"),
				need("list", coord, "leases"), need("watch", coord, "leases"))...),
		"root-ca-cert-publisher": append(needs([]string{"list", "watch", "create", "update"}, legacy, "configmaps"),
			needs([]string{"list", "watch"}, legacy, "namespaces")...),
		"nodeipam": needs([]string{"list", "watch", "update"}, legacy, "nodes"),
		"resourcequota": append(append(needs([]string{"list", "watch"}, legacy, "resourcequotas", "pods", "services", "configmaps", "secrets"),
			needs([]string{"list", "watch"}, apps, "deployments", "replicasets", "statefulsets", "daemonsets")...),
			append(needs([]string{"list", "watch"}, batch, "jobs", "cronjobs"), needSub("update", legacy, "resourcequotas", "status"))...),
		"horizontalpodautoscaling": append(needs([]string{"list", "watch"}, "autoscaling", "horizontalpodautoscalers"),
			needSub("update", "autoscaling", "horizontalpodautoscalers", "status"),
			needSub("get", apps, "deployments", "scale"), needSub("update", apps, "deployments", "scale"),
			need("list", legacy, "pods"), need("watch", legacy, "pods"), need("list", "metrics.platform.io", "pods")),
		"podgc": append(needs([]string{"list", "watch", "delete"}, legacy, "pods"), needs([]string{"get", "list", "watch"}, legacy, "nodes")...),
	}
	cm := append(daemonNeeds(managerLock),
		need("get", legacy, "serviceaccounts"), need("create", legacy, "serviceaccounts"),
		needSub("create", legacy, "serviceaccounts", "token"))
	for _, c := range Controllers {
		m["system:controller:"+c.Account] = loops[c.Loop]
		cm = append(cm, loops[c.Loop]...)
	}
	m[ControllerManagerUser] = cm
	m[CloudControllerManagerUser] = append(daemonNeeds(cloudLock),
		append(needs([]string{"get", "list", "watch", "update", "patch"}, legacy, "nodes"),
			needSub("patch", legacy, "nodes", "status"), needSub("update", legacy, "services", "status"),
			need("list", legacy, "services"), need("watch", legacy, "services"))...)
	return m
}
