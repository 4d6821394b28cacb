package fieldmanager_test

import (
	"fmt"
	"testing"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/deployment"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
)

// podWith is the benchmark's pod with extra labels and its container's
// image and env.
func podWith(labels, image, env string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"bench"` + labels + `}},"spec":{"containers":[{"name":"app","image":"` + image + `","env":[` + env + `]}],"restartPolicy":"Always"},"status":{"phase":"Running"}}`
}

// TestFastPathSameAsSlow: every kind of write sequence gives the same
// object and managedFields through the fast paths (only the changed parts
// compared, decoded sets kept and their encoding reused) as through the
// slow one; run checks each step of each sequence.
func TestFastPathSameAsSlow(t *testing.T) {
	const env = `{"name":"A","value":"1"},{"name":"B","value":"2"}`
	tests := []struct {
		name  string
		r     *registry.Resource
		steps []step
	}{
		{"label updates carrying the stored managedFields", pod.Resource(), []step{
			{update: podWith("", "app:1", env), manager: "creator"},
			{update: podWith(`,"tier":"a"`, "app:1", env), manager: "labeler", keepManaged: true},
			{update: podWith(`,"tier":"b"`, "app:1", env), manager: "labeler", keepManaged: true},
			{update: podWith(`,"tier":"b","x":"y"`, "app:1", env), manager: "other", keepManaged: true},
		}},
		{"a spec change takes the field from its owner", pod.Resource(), []step{
			{update: podWith("", "app:1", env), manager: "creator"},
			{update: podWith("", "app:2", env), manager: "deployer", keepManaged: true},
			{update: podWith(`,"tier":"a"`, "app:2", env), manager: "labeler", keepManaged: true},
		}},
		{"removals take fields from every owner", pod.Resource(), []step{
			{update: podWith(`,"tier":"a"`, "app:1", env), manager: "creator"},
			{update: podWith(`,"tier":"a"`, "app:1", `{"name":"A","value":"1"}`), manager: "trimmer", keepManaged: true},
			{update: podWith("", "app:1", `{"name":"A","value":"1"}`), manager: "trimmer", keepManaged: true},
		}},
		{"status writes own only status", pod.Resource(), []step{
			{update: podWith("", "app:1", env), manager: "creator"},
			{update: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"bench"}},"spec":{"containers":[{"name":"app","image":"app:1","env":[` + env + `]}],"restartPolicy":"Always"},"status":{"phase":"Succeeded"}}`,
				manager: "kubelet", subresource: "status", keepManaged: true},
		}},
		{"applies and updates interleaved", deployment.Resource(), []step{
			{apply: replicated("2"), manager: "alice"},
			{update: replicated("3"), manager: "bob", keepManaged: true},
			{apply: replicated("2"), manager: "alice", force: true},
			{scale: scaleTo("4"), manager: "hpa", force: true},
			{update: replicated("4"), manager: "bob", keepManaged: true},
		}},
	}
	// Past the cap of ten updaters, the oldest merge into ancient-changes.
	var many []step
	for i := range 13 {
		many = append(many, step{update: podWith(fmt.Sprintf(`,"k%02d":"v"`, i), "app:1", env), manager: fmt.Sprintf("m%02d", i), keepManaged: true})
	}
	tests = append(tests, struct {
		name  string
		r     *registry.Resource
		steps []step
	}{"many updaters", pod.Resource(), many})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, tt.r, tt.steps) })
	}
}
