package testing

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// ResourceList parses amounts written as strings ("500m", "1Gi"); it
// panics on a malformed amount, which is a bug in the test.
func ResourceList(m map[corev1.ResourceName]string) corev1.ResourceList {
	if m == nil {
		return nil
	}
	rl := make(corev1.ResourceList, len(m))
	for name, s := range m {
		rl[name] = resource.MustParse(s)
	}
	return rl
}
