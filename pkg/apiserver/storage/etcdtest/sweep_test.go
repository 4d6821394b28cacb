package etcdtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestSweepRemovesOnlyDeadOwners(t *testing.T) {
	// A process that has exited: its pid is free (reuse within the test
	// is possible but unlikely enough not to matter).
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(os.TempDir(), fmt.Sprintf("sweeptest-%d-x", cmd.Process.Pid))
	mine := filepath.Join(os.TempDir(), fmt.Sprintf("sweeptest-%d-y", os.Getpid()))
	other := filepath.Join(os.TempDir(), "sweeptest-notapid-z")
	for _, d := range []string{dead, mine, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	sweep("sweeptest")
	for d, want := range map[string]bool{dead: false, mine: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", d, err == nil, want)
		}
	}
}
