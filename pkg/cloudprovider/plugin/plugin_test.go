package plugin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/test/simcloud"
)

// envServe makes the test binary a provider plugin: started by the
// launcher with --endpoint, it serves a simulated cloud there and writes
// its pid to the file the variable names.
const envServe = "PLUGIN_TEST_SERVE_PIDFILE"

func TestMain(m *testing.M) {
	if pidFile := os.Getenv(envServe); pidFile != "" {
		os.Exit(serveAsPlugin(pidFile))
	}
	os.Exit(m.Run())
}

func serveAsPlugin(pidFile string) int {
	var endpoint string
	for _, a := range os.Args[1:] {
		if v, ok := strings.CutPrefix(a, "--endpoint="); ok {
			endpoint = v
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	cfg := simcloud.NewConfig()
	cfg.LoadBalancerCIDR = "127.99.0.0/30"
	c, err := simcloud.New(zap.NewNop(), *cfg, nil)
	if err != nil {
		return 1
	}
	lis, err := cloud.Listen(endpoint)
	if err != nil {
		return 1
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return 1
	}
	if err := cloud.Serve(ctx, lis, c, "test"); err != nil {
		return 1
	}
	return 0
}

func eventually(t *testing.T, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached: %v", what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPID(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(string(data))
}

// TestLaunchedProviderRestarts: the daemon starts the provider binary and
// shakes hands; when the provider is killed, calls fail and /readyz's
// check fails, without harm to the daemon, until the launcher has started
// it again; calls and errors are counted per method; on shutdown the
// provider is stopped and the socket's directory removed.
func TestLaunchedProviderRestarts(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv(envServe, pidFile)
	reg := prometheus.NewRegistry()
	opts := *NewOptions()
	opts.Provider, opts.Binary, opts.CallTimeout = "simcloud", os.Args[0], 2*time.Second
	p, err := New(zaptest.NewLogger(t), reg, opts, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	defer func() { cancel(); <-done }()
	info, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Instances || !info.LoadBalancers || !info.Routes || info.ProviderVersion != "test" {
		t.Errorf("handshake = %+v", info)
	}
	inst, _ := p.Provider().Instances()
	check := func() error {
		req, _ := http.NewRequest("GET", "/readyz", nil)
		return p.ReadyCheck().Check(req)
	}
	if err := check(); err != nil {
		t.Fatalf("ready check: %v", err)
	}
	first, err := readPID(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the ready check fails", func() error {
		if check() == nil {
			return errors.New("still ready")
		}
		return nil
	})
	if _, err := inst.InstanceExists(ctx, cloud.Node{Name: "simnode-0"}); err == nil {
		t.Log("a call succeeded between the kill and the restart")
	}
	eventually(t, "the provider restarted and serves", func() error {
		pid, err := readPID(pidFile)
		if err != nil || pid == first {
			return fmt.Errorf("pid %d (%v)", pid, err)
		}
		if ok, err := inst.InstanceExists(ctx, cloud.Node{Name: "simnode-0"}); err != nil || !ok {
			return fmt.Errorf("InstanceExists = %v, %v", ok, err)
		}
		return check()
	})
	if n := sum(t, reg, "cloudprovider_plugin_calls_total", "InstanceExists"); n < 1 {
		t.Errorf("InstanceExists calls counted: %v", n)
	}
	if n := sum(t, reg, "cloudprovider_plugin_call_errors_total", "Handshake"); n < 1 {
		t.Errorf("failed handshakes (ready checks) counted: %v", n)
	}
	if n := sum(t, reg, "cloudprovider_plugin_call_duration_seconds", "InstanceExists"); n < 1 {
		t.Errorf("InstanceExists latencies observed: %v", n)
	}
	second, _ := readPID(pidFile)
	cancel()
	<-done
	done <- nil
	if err := syscall.Kill(second, 0); err == nil {
		t.Errorf("provider %d still running after shutdown", second)
	}
	if _, err := os.Stat(filepath.Dir(strings.TrimPrefix(p.Endpoint(), "unix://"))); !os.IsNotExist(err) {
		t.Errorf("socket directory left behind: %v", err)
	}
}

// sum is the total of the metric name's series for method: counter values,
// or histogram sample counts.
func sum(t *testing.T, reg *prometheus.Registry, name, method string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "method" && l.GetValue() == method {
					total += m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount())
				}
			}
		}
	}
	return total
}

// TestWrongProviderName: a plugin reporting another name than
// --cloud-provider is refused.
func TestWrongProviderName(t *testing.T) {
	t.Parallel()
	endpoint := "unix://" + filepath.Join(t.TempDir(), "p.sock")
	cfg := simcloud.NewConfig()
	cfg.LoadBalancerCIDR = "127.98.0.0/30"
	c, err := simcloud.New(zap.NewNop(), *cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := cloud.Listen(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = cloud.Serve(ctx, lis, c, "test") }()
	opts := *NewOptions()
	opts.Provider, opts.Endpoint = "other", endpoint
	p, err := New(zaptest.NewLogger(t), prometheus.NewRegistry(), opts, "test")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.Run(ctx) }()
	if _, err := p.Wait(ctx); !errors.Is(err, ErrWrongProvider) {
		t.Errorf("Wait = %v, want ErrWrongProvider", err)
	}
}
