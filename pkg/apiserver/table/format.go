package table

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

// None is what a cell shows for an absent value.
const None = "<none>"

// OrNone returns s, or None when s is empty.
func OrNone(s string) string {
	if s == "" {
		return None
	}
	return s
}

// Containers returns the comma-separated names and images of containers,
// the cells of the Containers and Images columns.
func Containers(containers []corev1.Container) (names, images string) {
	n := make([]string, len(containers))
	im := make([]string, len(containers))
	for i, c := range containers {
		n[i], im[i] = c.Name, c.Image
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// Labels renders a label map as "k1=v1,k2=v2" with sorted keys, or None
// when it is empty.
func Labels(m map[string]string) string {
	return OrNone(labels.Set(m).String())
}

// Selector renders a label selector in the selector string syntax: None
// when it selects everything or nothing, "<error>" when it is malformed.
func Selector(sel *meta.LabelSelector) string {
	s, err := labels.FromLabelSelector(sel)
	if err != nil {
		return "<error>"
	}
	return OrNone(s.String())
}

// Bool renders a boolean cell as the printers do: "True" or "False", and
// "<unset>" for nil.
func Bool(b *bool) string {
	switch {
	case b == nil:
		return "<unset>"
	case *b:
		return "True"
	}
	return "False"
}
