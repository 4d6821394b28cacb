// Command platform-scheduler places pods on nodes.
package main

import (
	"os"

	"platform.io/platform/cmd/scheduler/app"
	"platform.io/platform/pkg/component/daemon"
)

func main() { os.Exit(daemon.Main(app.Spec(), os.Args[1:])) }
