// Command platform-apiserver serves the cluster's resource API over etcd.
package main

import (
	"os"

	"platform.io/platform/cmd/apiserver/app"
)

func main() { os.Exit(app.Main(os.Args[1:])) }
