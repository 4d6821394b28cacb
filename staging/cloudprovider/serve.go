package cloudprovider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"platform.io/client/cloudprovider/pb"
)

// Listen listens on endpoint, unix:///path/to/socket, removing a socket
// file left by an earlier run.
func Listen(endpoint string) (net.Listener, error) {
	path, err := SocketPath(endpoint)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
		}
	}
	lis, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", endpoint, err)
	}
	return lis, nil
}

// SocketPath is the path of a unix:///path endpoint.
func SocketPath(endpoint string) (string, error) {
	path, ok := strings.CutPrefix(endpoint, "unix://")
	if !ok || !strings.HasPrefix(path, "/") {
		return "", fmt.Errorf("cloudprovider: endpoint %q is not unix:///absolute/path", endpoint)
	}
	return path, nil
}

// Serve serves p over the plugin protocol on lis until ctx ends, then
// stops gracefully. version is the provider's build version, told to the
// daemon in the handshake.
func Serve(ctx context.Context, lis net.Listener, p Interface, version string) error {
	s := grpc.NewServer()
	pb.RegisterCloudProviderServer(s, &server{p: p, version: version})
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			s.GracefulStop()
		case <-done:
		}
	}()
	if err := s.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return fmt.Errorf("cloudprovider: serve: %w", err)
	}
	return nil
}

// server adapts an Interface to the generated service.
type server struct {
	pb.UnimplementedCloudProviderServer
	p       Interface
	version string
}

var _ pb.CloudProviderServer = (*server)(nil)

func (s *server) Handshake(_ context.Context, req *pb.HandshakeRequest) (*pb.HandshakeResponse, error) {
	if !slices.Contains(req.GetProtocolVersions(), ProtocolVersion) {
		return nil, status.Errorf(codes.FailedPrecondition, "cloudprovider: provider speaks protocol version %d, daemon offers %v",
			ProtocolVersion, req.GetProtocolVersions())
	}
	_, in := s.p.Instances()
	_, zo := s.p.Zones()
	_, lb := s.p.LoadBalancers()
	_, ro := s.p.Routes()
	return &pb.HandshakeResponse{ProtocolVersion: ProtocolVersion, ProviderName: s.p.Name(), ProviderVersion: s.version,
		Capabilities: &pb.Capabilities{Instances: in, Zones: zo, LoadBalancers: lb, Routes: ro}}, nil
}

func (s *server) instances() (Instances, error) {
	if i, ok := s.p.Instances(); ok {
		return i, nil
	}
	return nil, toStatus(fmt.Errorf("instances: %w", ErrNotImplemented))
}

func (s *server) InstanceExists(ctx context.Context, req *pb.NodeRequest) (*pb.BoolResponse, error) {
	i, err := s.instances()
	if err != nil {
		return nil, err
	}
	ok, err := i.InstanceExists(ctx, nodeFromPB(req))
	return &pb.BoolResponse{Value: ok}, toStatus(err)
}

func (s *server) InstanceShutdown(ctx context.Context, req *pb.NodeRequest) (*pb.BoolResponse, error) {
	i, err := s.instances()
	if err != nil {
		return nil, err
	}
	ok, err := i.InstanceShutdown(ctx, nodeFromPB(req))
	return &pb.BoolResponse{Value: ok}, toStatus(err)
}

func (s *server) InstanceMetadata(ctx context.Context, req *pb.NodeRequest) (*pb.InstanceMetadataResponse, error) {
	i, err := s.instances()
	if err != nil {
		return nil, err
	}
	m, err := i.InstanceMetadata(ctx, nodeFromPB(req))
	if err != nil {
		return nil, toStatus(err)
	}
	return metadataToPB(m), nil
}

func (s *server) GetZone(ctx context.Context, req *pb.NodeRequest) (*pb.Zone, error) {
	z, ok := s.p.Zones()
	if !ok {
		return nil, toStatus(fmt.Errorf("zones: %w", ErrNotImplemented))
	}
	zone, err := z.GetZone(ctx, nodeFromPB(req))
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.Zone{Zone: zone.Zone, Region: zone.Region}, nil
}

func (s *server) loadBalancers() (LoadBalancers, error) {
	if l, ok := s.p.LoadBalancers(); ok {
		return l, nil
	}
	return nil, toStatus(fmt.Errorf("load balancers: %w", ErrNotImplemented))
}

func (s *server) GetLoadBalancer(ctx context.Context, req *pb.LoadBalancerRequest) (*pb.GetLoadBalancerResponse, error) {
	l, err := s.loadBalancers()
	if err != nil {
		return nil, err
	}
	st, exists, err := l.GetLoadBalancer(ctx, req.GetClusterName(), serviceFromPB(req.GetService()))
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.GetLoadBalancerResponse{Exists: exists, Status: statusToPB(st)}, nil
}

func (s *server) EnsureLoadBalancer(ctx context.Context, req *pb.LoadBalancerRequest) (*pb.LoadBalancerStatus, error) {
	l, err := s.loadBalancers()
	if err != nil {
		return nil, err
	}
	st, err := l.EnsureLoadBalancer(ctx, req.GetClusterName(), serviceFromPB(req.GetService()), nodesFromPB(req.GetNodes()))
	if err != nil {
		return nil, toStatus(err)
	}
	return statusToPB(st), nil
}

func (s *server) UpdateLoadBalancer(ctx context.Context, req *pb.LoadBalancerRequest) (*pb.Empty, error) {
	l, err := s.loadBalancers()
	if err != nil {
		return nil, err
	}
	err = l.UpdateLoadBalancer(ctx, req.GetClusterName(), serviceFromPB(req.GetService()), nodesFromPB(req.GetNodes()))
	return &pb.Empty{}, toStatus(err)
}

func (s *server) EnsureLoadBalancerDeleted(ctx context.Context, req *pb.LoadBalancerRequest) (*pb.Empty, error) {
	l, err := s.loadBalancers()
	if err != nil {
		return nil, err
	}
	return &pb.Empty{}, toStatus(l.EnsureLoadBalancerDeleted(ctx, req.GetClusterName(), serviceFromPB(req.GetService())))
}

func (s *server) routes() (Routes, error) {
	if r, ok := s.p.Routes(); ok {
		return r, nil
	}
	return nil, toStatus(fmt.Errorf("routes: %w", ErrNotImplemented))
}

func (s *server) ListRoutes(ctx context.Context, req *pb.ListRoutesRequest) (*pb.ListRoutesResponse, error) {
	r, err := s.routes()
	if err != nil {
		return nil, err
	}
	routes, err := r.ListRoutes(ctx, req.GetClusterName())
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.ListRoutesResponse{}
	for _, rt := range routes {
		out.Routes = append(out.Routes, routeToPB(rt))
	}
	return out, nil
}

func (s *server) CreateRoute(ctx context.Context, req *pb.RouteRequest) (*pb.Empty, error) {
	r, err := s.routes()
	if err != nil {
		return nil, err
	}
	return &pb.Empty{}, toStatus(r.CreateRoute(ctx, req.GetClusterName(), req.GetNameHint(), routeFromPB(req.GetRoute())))
}

func (s *server) DeleteRoute(ctx context.Context, req *pb.RouteRequest) (*pb.Empty, error) {
	r, err := s.routes()
	if err != nil {
		return nil, err
	}
	return &pb.Empty{}, toStatus(r.DeleteRoute(ctx, req.GetClusterName(), routeFromPB(req.GetRoute())))
}
