// Command platform-controller-manager runs the core control loops.
package main

import (
	"os"

	"platform.io/platform/cmd/controller-manager/app"
	"platform.io/platform/pkg/component/daemon"
)

func main() { os.Exit(daemon.Main(app.Spec(), os.Args[1:])) }
