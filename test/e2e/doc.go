// Package e2e is the end-to-end suite: each test starts the built
// platform-apiserver binary from $PLATFORM_BIN_DIR as a real process on
// free loopback ports with an embedded etcd, and drives the stock kubectl
// against it, asserting on kubectl's exit codes and output.
//
// TestHA (ha_test.go, run alone by `make test-ha`) is the exception: three
// simulated control-plane hosts on 127.0.0.2-4, each with a member of one
// Debian etcd cluster, an API server and replicas of the scheduler and the
// controller manager, with a load balancer and a workload driven through
// the Go client; it kills and restarts hosts, members and servers, and
// logs a table of takeover times.
//
// TestLocalUp runs `make run`'s script (hack/local-up.sh) itself, on free
// ports, as a newcomer would; TestKubectlTop and TestHorizontalPodAutoscaler
// run the metrics server behind the API server's aggregation layer
// (metricscluster_test.go) with the simulated nodes' usage driven by pod
// annotations.
package e2e
