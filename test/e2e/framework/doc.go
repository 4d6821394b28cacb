// Package framework starts the built binaries for tests on free loopback
// ports: the platform-apiserver (embedded or external etcd, a client CA
// and an admin kubeconfig), the other daemons and the simulated nodes
// against it, each as a real process stopped when the test ends, and runs
// the stock kubectl against it. The e2e suite and the soak test use it.
package framework
