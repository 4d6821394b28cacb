package podspec

import (
	"slices"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// FuzzFieldPath validates arbitrary downward-API field paths, for env vars
// and volumes: that must never panic, and a path accepted is one of the
// listed ones or a subscripted label or annotation with a non-empty key.
func FuzzFieldPath(f *testing.F) {
	for _, seed := range []string{
		"metadata.name", "status.podIP", "metadata.labels['app']", "metadata.annotations['a.io/b']",
		"metadata.labels[app]", "metadata.labels['']", "metadata.labels['x", "spec.nodeName", "", "metadata.labels['A_B']",
	} {
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, path string, env bool) {
		allowed := volumeFieldPaths
		if env {
			allowed = envFieldPaths
		}
		errs := validateFieldRef(&corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}, allowed, field.NewPath("fieldRef"))
		if len(errs) > 0 || slices.Contains(allowed, path) {
			return
		}
		for _, prefix := range []string{"metadata.labels['", "metadata.annotations['"} {
			if key, ok := strings.CutPrefix(path, prefix); ok && strings.HasSuffix(key, "']") && len(key) > 2 {
				return
			}
		}
		t.Fatalf("field path %q accepted (env %v)", path, env)
	})
}
