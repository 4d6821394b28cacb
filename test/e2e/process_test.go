package e2e

import (
	"testing"
	"time"

	"platform.io/platform/test/e2e/framework"
)

// Process is a daemon started by a test against a Server.
type Process = framework.Process

func binary(t testing.TB, name string) string { t.Helper(); return framework.Binary(t, name) }

func launch(name, bin, logPath string, args []string) (*Process, error) {
	return framework.Launch(name, bin, logPath, args)
}

func tail(path string, n int) string { return framework.Tail(path, n) }

// Eventually runs check every 250ms until it returns "" or within passes,
// then fails t with check's last answer.
func Eventually(t testing.TB, within time.Duration, what string, check func() string) {
	t.Helper()
	framework.Eventually(t, within, what, check)
}
