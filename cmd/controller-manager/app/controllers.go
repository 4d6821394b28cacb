package app

import (
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/cronjob"
	"platform.io/platform/pkg/controller/daemonset"
	"platform.io/platform/pkg/controller/deployment"
	"platform.io/platform/pkg/controller/endpoints"
	"platform.io/platform/pkg/controller/garbagecollector"
	"platform.io/platform/pkg/controller/job"
	"platform.io/platform/pkg/controller/namespace"
	"platform.io/platform/pkg/controller/nodeipam"
	"platform.io/platform/pkg/controller/nodelifecycle"
	"platform.io/platform/pkg/controller/podautoscaler"
	"platform.io/platform/pkg/controller/podgc"
	"platform.io/platform/pkg/controller/replicaset"
	"platform.io/platform/pkg/controller/resourcequota"
	"platform.io/platform/pkg/controller/rootcacertpublisher"
	"platform.io/platform/pkg/controller/serviceaccount"
	"platform.io/platform/pkg/controller/statefulset"
	"platform.io/platform/pkg/controller/ttlafterfinished"
)

// Descriptors is the table of every control loop the controller manager
// can run.
func Descriptors() []controller.Descriptor {
	return []controller.Descriptor{
		deployment.Descriptor(),
		replicaset.Descriptor(),
		statefulset.Descriptor(),
		daemonset.Descriptor(),
		job.Descriptor(),
		cronjob.Descriptor(),
		ttlafterfinished.Descriptor(),
		endpoints.Descriptor(),
		garbagecollector.Descriptor(),
		namespace.Descriptor(),
		serviceaccount.Descriptor(),
		rootcacertpublisher.Descriptor(),
		nodeipam.Descriptor(),
		nodelifecycle.Descriptor(),
		podgc.Descriptor(),
		resourcequota.Descriptor(),
		podautoscaler.Descriptor(),
	}
}

// ServiceAccount is the account in platform-system a loop runs as with
// --use-service-account-credentials: upstream's names, which the
// bootstrap roles system:controller:<account> are bound to.
func ServiceAccount(loop string) string {
	return map[string]string{
		"deployment":               "deployment-controller",
		"replicaset":               "replicaset-controller",
		"statefulset":              "statefulset-controller",
		"daemonset":                "daemon-set-controller",
		"job":                      "job-controller",
		"cronjob":                  "cronjob-controller",
		"ttl-after-finished":       "ttl-after-finished-controller",
		"endpoint":                 "endpoint-controller",
		"garbagecollector":         "generic-garbage-collector",
		"namespace":                "namespace-controller",
		"serviceaccount":           "service-account-controller",
		"root-ca-cert-publisher":   "root-ca-cert-publisher",
		"nodeipam":                 "node-ipam-controller",
		"nodelifecycle":            "node-controller",
		"podgc":                    "pod-garbage-collector",
		"resourcequota":            "resourcequota-controller",
		"horizontalpodautoscaling": "horizontal-pod-autoscaler",
	}[loop]
}
