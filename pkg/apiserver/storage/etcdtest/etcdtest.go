// Package etcdtest gives tests a real etcd, started once per test binary:
// an embedded member by default; with PLATFORM_TEST_ETCD=external an etcd
// process from PATH (Debian's etcd-server); with PLATFORM_TEST_ETCD set to a
// comma-separated list of client URLs, that cluster. Each test gets its own
// key prefix so tests can run in parallel against one member.
package etcdtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage/embedded"
)

// EnvEndpoints names the environment variable that points tests at an external etcd.
const EnvEndpoints = "PLATFORM_TEST_ETCD"

var (
	once      sync.Once
	endpoints []string
	startErr  error
	counter   atomic.Int64
)

// Endpoints returns the client URLs of the test etcd, starting the embedded
// member on first use. The member lives until the test binary exits.
func Endpoints(t testing.TB) []string {
	t.Helper()
	once.Do(func() {
		switch env := os.Getenv(EnvEndpoints); env {
		case "":
		case "external":
			endpoints, startErr = startProcess()
			return
		default:
			endpoints = strings.Split(env, ",")
			return
		}
		dir, err := tempDir("etcdtest")
		if err != nil {
			startErr = err
			return
		}
		e, err := embedded.Start(context.Background(), zap.NewNop(), embedded.Options{
			DataDir: dir, ClientURL: "http://127.0.0.1:0", PeerURL: "http://127.0.0.1:0",
		})
		if err != nil {
			startErr = err
			return
		}
		endpoints = []string{e.ClientURL}
	})
	if startErr != nil {
		t.Fatalf("start test etcd: %v", startErr)
	}
	return endpoints
}

// Client returns a client of the test etcd, closed when the test ends, and a
// key prefix no other test uses.
func Client(t testing.TB) (*clientv3.Client, string) {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: Endpoints(t), DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatalf("etcd client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	prefix := fmt.Sprintf("/test-%d-%d-%s/", os.Getpid(), counter.Add(1), strings.ReplaceAll(t.Name(), "/", "_"))
	return c, prefix
}
