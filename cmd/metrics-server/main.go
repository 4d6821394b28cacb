// Command platform-metrics-server serves the resource metrics API
// (metrics.platform.io and metrics.k8s.io v1beta1) from the nodes'
// kubelet-style resource metrics endpoints, for the API server to
// aggregate.
package main

import (
	"os"

	"platform.io/platform/cmd/metrics-server/app"
	"platform.io/platform/pkg/component/daemon"
)

func main() { os.Exit(daemon.Main(app.Spec(), os.Args[1:])) }
