package noderestriction

import (
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/admission"
)

// lease lets a node write only its own Lease in platform-node-lease.
func lease(name string, a *admission.Attributes) error {
	if a.Namespace != corev1.NamespaceNodeLease {
		return denyf("can only access leases in the %q system namespace", corev1.NamespaceNodeLease)
	}
	if objectName(a) != name {
		return denyf("can only access node lease with the same name as the requesting node")
	}
	return nil
}
