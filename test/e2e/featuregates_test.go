package e2e

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFeatureGateFlags: every daemon accepts --feature-gates, and a gate
// it does not have exits 2 with a message naming the gates it has.
func TestFeatureGateFlags(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(apiserverBinary(t))
	tests := []struct {
		bin, gates string
		code       int
		wantErr    string
	}{
		{"platform-apiserver", "DryRun=false,APIListChunking=false,RemainingItemCount=false,ServerSideApply=false", 0, ""},
		{"platform-apiserver", "NoSuchGate=true", 2,
			"unrecognized feature gate: NoSuchGate (known gates: APIListChunking, DryRun, RemainingItemCount, ServerSideApply)"},
		{"platform-scheduler", "", 0, ""},
		{"platform-scheduler", "DryRun=true", 2, "unrecognized feature gate: DryRun (this component has no feature gates)"},
		{"platform-controller-manager", "", 0, ""},
		{"platform-controller-manager", "Anything=false", 2, "unrecognized feature gate: Anything (this component has no feature gates)"},
	}
	for _, tc := range tests {
		t.Run(tc.bin+"/"+tc.gates, func(t *testing.T) {
			// --version ends an accepted command line before anything starts.
			out, err := exec.Command(filepath.Join(dir, tc.bin), "--feature-gates="+tc.gates, "--version").CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(string(out), tc.wantErr) {
				t.Errorf("exit code %d, output %q; want %d and %q", code, out, tc.code, tc.wantErr)
			}
		})
	}
}
