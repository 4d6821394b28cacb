package cloudprovider

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/cmd/cloud-controller-manager/app"
	"platform.io/platform/pkg/cloudprovider/service"
	"platform.io/platform/test/simcloud"
	"platform.io/platform/test/simcloud/harness"
)

// callsPerOp are the calls of one benchmark operation, so that even a
// run of -benchtime 1x (make bench) averages over many.
const callsPerOp = 2000

// BenchmarkProviderCall is InstanceMetadata on the simulated cloud,
// in-process and through the plugin protocol on a Unix socket, one caller
// and GOMAXPROCS callers; ns/call is the figure.
func BenchmarkProviderCall(b *testing.B) {
	cfg := simcloud.NewConfig()
	cfg.LoadBalancerCIDR = "127.97.0.0/30"
	c, err := simcloud.New(zap.NewNop(), *cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	endpoint := "unix://" + filepath.Join(b.TempDir(), "p.sock")
	lis, err := cloud.Listen(endpoint)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = cloud.Serve(ctx, lis, c, "bench") }()
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	remote := cloud.NewRemote(conn, 10*time.Second, "bench")
	if _, err := remote.Handshake(ctx); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    cloud.Interface
	}{{"in-process", c}, {"plugin", remote}} {
		inst, _ := tc.p.Instances()
		node := cloud.Node{Name: "simnode-1"}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for range callsPerOp {
					if _, err := inst.InstanceMetadata(ctx, node); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*callsPerOp), "ns/call")
		})
		b.Run(tc.name+"-parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					for range callsPerOp {
						if _, err := inst.InstanceMetadata(ctx, node); err != nil {
							b.Error(err)
							return
						}
					}
				}
			})
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*callsPerOp), "ns/call")
		})
	}
}

// BenchmarkLoadBalancerIngress creates 100 LoadBalancer Services at once
// and measures until every one has its ingress address, with the service
// loop at 1 (the default) and 10 workers, against an in-process API server
// and the simulated cloud over its socket.
func BenchmarkLoadBalancerIngress(b *testing.B) {
	const services = 100
	for _, workers := range []int{1, 10} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			h := harness.Start(b, func(o *app.Options) {
				o.Controllers = []string{"service"}
				for _, l := range o.Loops() {
					if s, ok := l.(*service.Options); ok {
						s.Workers = workers
					}
				}
			})
			ctx := context.Background()
			svcs := h.Clients.Services.Namespace("default")
			var total time.Duration
			round := 0
			for b.Loop() {
				round++
				start := time.Now()
				for i := range services {
					svc := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("lb-%d-%d", round, i)},
						Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, Ports: []corev1.ServicePort{{Port: 80}}}}
					if _, err := svcs.Create(ctx, svc, meta.WriteOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				for {
					list, err := svcs.List(ctx, meta.ListOptions{})
					if err != nil {
						b.Fatal(err)
					}
					served := 0
					for _, s := range list.Items {
						if len(s.Status.LoadBalancer.Ingress) > 0 {
							served++
						}
					}
					if served == round*services {
						break
					}
					if time.Since(start) > 5*time.Minute {
						b.Fatalf("%d of %d services served after 5m", served, round*services)
					}
					time.Sleep(5 * time.Millisecond)
				}
				total += time.Since(start)
				b.StopTimer()
				if err := svcs.DeleteCollection(ctx, nil, meta.ListOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(total.Seconds()/float64(round), "s/100-services")
		})
	}
}
