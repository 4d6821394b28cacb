package daemon

import (
	"bytes"
	"strings"
	"testing"

	"platform.io/platform/pkg/component/featuregate"
)

// TestFeatureGates: --feature-gates accepts the daemon's own gates and
// rejects any other name with exit code 2 and the list of known gates.
func TestFeatureGates(t *testing.T) {
	withGate := testSpec()
	withGate.NewFeatures = func() *featuregate.Gate {
		return featuregate.New(map[featuregate.Feature]featuregate.Spec{"Thing": {Default: true, PreRelease: featuregate.Beta}})
	}
	tests := []struct {
		name    string
		spec    Spec
		args    []string
		code    int
		wantErr string
	}{
		{"no gates: empty value", testSpec(), []string{"--feature-gates=", "--version"}, 0, ""},
		{"no gates: any name", testSpec(), []string{"--feature-gates=DryRun=false"}, 2,
			"unrecognized feature gate: DryRun (this component has no feature gates)"},
		{"own gate", withGate, []string{"--feature-gates=Thing=false", "--version"}, 0, ""},
		{"unknown gate", withGate, []string{"--feature-gates=Other=true"}, 2,
			"unrecognized feature gate: Other (known gates: Thing)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Execute(tc.spec, tc.args, &stdout, &stderr); code != tc.code {
				t.Errorf("exit code = %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.wantErr)
			}
		})
	}
}
