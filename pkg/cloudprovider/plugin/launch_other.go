//go:build !linux

package plugin

import "os/exec"

// dieWithParent does nothing where the kernel cannot tie the provider's
// life to the daemon's.
func dieWithParent(*exec.Cmd) {}
