package framework

import (
	"context"
	"os"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	"platform.io/client/informer"
	"platform.io/client/record"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/metrics"
)

// RESTClient returns an unthrottled protobuf client of s.
func (s *Server) RESTClient(t testing.TB) *rest.Client {
	t.Helper()
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Deps returns what the daemon runner gives a daemon named component,
// against s, for running schedulers and controllers in-process: clients,
// a fresh informer factory (not started), an event recorder writing to s,
// queue metrics on a fresh registry, and a logger at warn level (debug with
// PLATFORM_TEST_DEBUG set). Server is nil. Everything stops when the test
// ends.
func (s *Server) Deps(t testing.TB, component string) *daemon.Deps {
	t.Helper()
	rc := s.RESTClient(t)
	level := zap.WarnLevel
	if os.Getenv("PLATFORM_TEST_DEBUG") != "" {
		level = zap.DebugLevel
	}
	lg := zaptest.NewLogger(t, zaptest.Level(level)).Named(component)
	reg := prometheus.NewRegistry()
	queues, err := metrics.NewWorkqueue(reg)
	if err != nil {
		t.Fatal(err)
	}
	events := record.NewBroadcaster(record.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	events.StartRecordingToSink(ctx, record.NewRESTSink(rc))
	f := informer.NewFactory(informer.Options{})
	t.Cleanup(func() {
		cancel()
		f.Shutdown()
		_ = events.Shutdown(context.Background())
	})
	return &daemon.Deps{
		Logger: lg, Registry: reg, Config: &rest.Config{Host: s.URL, QPS: -1},
		REST: rc, Clients: client.NewSet(rc), Informers: f, Events: events,
		Recorder: events.NewRecorder(corev1.EventSource{Component: component}),
		Queues:   queues, Identity: component + "-test",
		IsLeader: func() bool { return true },
	}
}
