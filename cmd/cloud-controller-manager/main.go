// Command platform-cloud-controller-manager runs the cloud-specific control
// loops against a cloud provider plugin.
package main

import (
	"os"

	"platform.io/platform/cmd/cloud-controller-manager/app"
	"platform.io/platform/pkg/component/daemon"
)

func main() { os.Exit(daemon.Main(app.Spec(), os.Args[1:])) }
