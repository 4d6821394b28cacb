package plugin

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel send the provider SIGTERM when the daemon
// dies, even killed, so no provider is left serving without it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
