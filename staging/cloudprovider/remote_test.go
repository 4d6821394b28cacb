package cloudprovider_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"platform.io/client/cloudprovider"
)

// instancesOnly implements only Instances; InstanceMetadata blocks until
// its context ends for the node named "hung".
type instancesOnly struct{}

func (instancesOnly) Name() string { return "test" }
func (p instancesOnly) Instances() (cloudprovider.Instances, bool) {
	return p, true
}
func (instancesOnly) Zones() (cloudprovider.Zones, bool)                 { return nil, false }
func (instancesOnly) LoadBalancers() (cloudprovider.LoadBalancers, bool) { return nil, false }
func (instancesOnly) Routes() (cloudprovider.Routes, bool)               { return nil, false }

func (instancesOnly) InstanceExists(_ context.Context, n cloudprovider.Node) (bool, error) {
	return n.Name == "a", nil
}
func (instancesOnly) InstanceShutdown(_ context.Context, n cloudprovider.Node) (bool, error) {
	if n.Name != "a" {
		return false, cloudprovider.ErrInstanceNotFound
	}
	return true, nil
}
func (instancesOnly) InstanceMetadata(ctx context.Context, n cloudprovider.Node) (*cloudprovider.InstanceMetadata, error) {
	switch n.Name {
	case "hung":
		<-ctx.Done()
		return nil, ctx.Err()
	case "a":
		return &cloudprovider.InstanceMetadata{ProviderID: "test://a", InstanceType: "big",
			Addresses: []cloudprovider.Address{{Type: "InternalIP", Address: "10.1.1.1"}},
			Zone:      cloudprovider.Zone{Zone: "z1", Region: "r1"}}, nil
	}
	return nil, cloudprovider.ErrInstanceNotFound
}

func serve(t *testing.T, p cloudprovider.Interface) *cloudprovider.Remote {
	t.Helper()
	endpoint := "unix://" + filepath.Join(t.TempDir(), "p.sock")
	lis, err := cloudprovider.Listen(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cloudprovider.Serve(ctx, lis, p, "v-test") }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return cloudprovider.NewRemote(conn, 200*time.Millisecond, "d-test")
}

// TestRemoteRoundTrip: over a real socket, the handshake carries name,
// version and capabilities; results and the not-found and unimplemented
// errors cross the protocol; a hung call ends at the deadline.
func TestRemoteRoundTrip(t *testing.T) {
	t.Parallel()
	r := serve(t, instancesOnly{})
	ctx := context.Background()
	if _, ok := r.Instances(); ok {
		t.Fatal("Instances implemented before the handshake")
	}
	info, err := r.Handshake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := cloudprovider.HandshakeInfo{ProtocolVersion: 1, ProviderName: "test", ProviderVersion: "v-test", Instances: true}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Fatalf("handshake (-want +got):\n%s", diff)
	}
	if _, ok := r.LoadBalancers(); ok {
		t.Error("LoadBalancers reported implemented")
	}
	md, err := r.InstanceMetadata(ctx, cloudprovider.Node{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if md.ProviderID != "test://a" || md.Zone.Region != "r1" || len(md.Addresses) != 1 || md.Addresses[0].Address != "10.1.1.1" {
		t.Errorf("metadata = %+v", md)
	}
	for _, tc := range []struct {
		name string
		call func() error
		want error
	}{
		{"not found", func() error { _, err := r.InstanceMetadata(ctx, cloudprovider.Node{Name: "b"}); return err }, cloudprovider.ErrInstanceNotFound},
		{"shutdown not found", func() error { _, err := r.InstanceShutdown(ctx, cloudprovider.Node{Name: "b"}); return err }, cloudprovider.ErrInstanceNotFound},
		{"unimplemented", func() error { _, err := r.ListRoutes(ctx, "c"); return err }, cloudprovider.ErrNotImplemented},
		{"deadline", func() error { _, err := r.InstanceMetadata(ctx, cloudprovider.Node{Name: "hung"}); return err }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := tc.call()
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("call took %v", d)
			}
		})
	}
	if ok, err := r.InstanceExists(ctx, cloudprovider.Node{Name: "a"}); err != nil || !ok {
		t.Errorf("InstanceExists(a) = %v, %v", ok, err)
	}
}
