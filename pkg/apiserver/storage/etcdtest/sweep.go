package etcdtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The test etcd's data lives until its test binary exits, which has no
// hook to remove it; so each directory is named after the process that
// owns it, and every start removes the directories of processes that are
// gone. Without this, every test run would leave hundreds of megabytes in
// the temporary directory.

// tempDir makes a data directory for this process: <kind>-<pid>-<random>.
func tempDir(kind string) (string, error) {
	sweep(kind)
	return os.MkdirTemp("", fmt.Sprintf("%s-%d-", kind, os.Getpid()))
}

// sweep removes the <kind>-<pid>-* directories whose process has exited.
func sweep(kind string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), kind+"-*-*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), kind+"-")
		pidStr, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid <= 0 || alive(pid) {
			continue
		}
		_ = os.RemoveAll(d)
	}
}

// alive reports whether a process with pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
