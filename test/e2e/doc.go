// Package e2e is the end-to-end suite: each test starts the built
// platform-apiserver binary from $PLATFORM_BIN_DIR as a real process on
// free loopback ports with an embedded etcd, and drives the stock kubectl
// against it, asserting on kubectl's exit codes and output.
package e2e
