// Package cloudprovider is the cloud provider interface of
// platform-cloud-controller-manager and the SDK that serves an
// implementation of it as an out-of-process plugin over the gRPC protocol
// of package pb (docs/cloud-provider.md). A provider implements Interface
// and the optional parts it supports, and calls Serve; the daemon reaches
// it through Dial, which is also an Interface.
package cloudprovider
