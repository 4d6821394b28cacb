package cloudprovider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"

	"platform.io/client/cloudprovider/pb"
)

// ErrNoHandshake: a Remote was used before its first successful Handshake.
var ErrNoHandshake = errors.New("cloudprovider: no handshake with the provider yet")

// HandshakeInfo is what a provider said in the handshake.
type HandshakeInfo struct {
	ProtocolVersion uint32
	ProviderName    string
	ProviderVersion string
	Instances       bool
	Zones           bool
	LoadBalancers   bool
	Routes          bool
}

// Remote is an Interface served by a plugin over conn. Every call gets a
// deadline of at most Timeout, shorter when the caller's context has one.
// A Remote learns the provider's name and capabilities from Handshake;
// until then it implements no part.
type Remote struct {
	c       pb.CloudProviderClient
	timeout time.Duration
	version string

	// mu guards info.
	mu   sync.Mutex
	info *HandshakeInfo
}

var (
	_ Interface     = (*Remote)(nil)
	_ Instances     = (*Remote)(nil)
	_ Zones         = (*Remote)(nil)
	_ LoadBalancers = (*Remote)(nil)
	_ Routes        = (*Remote)(nil)
)

// NewRemote returns the provider served over conn; daemonVersion is told
// to the provider in the handshake.
func NewRemote(conn grpc.ClientConnInterface, timeout time.Duration, daemonVersion string) *Remote {
	return &Remote{c: pb.NewCloudProviderClient(conn), timeout: timeout, version: daemonVersion}
}

// Handshake negotiates the protocol version and records the provider's
// name and capabilities. It can be repeated: a provider restarted with
// other capabilities is seen by the next one.
func (r *Remote) Handshake(ctx context.Context) (HandshakeInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	resp, err := r.c.Handshake(ctx, &pb.HandshakeRequest{ProtocolVersions: []uint32{ProtocolVersion}, DaemonVersion: r.version})
	if err != nil {
		return HandshakeInfo{}, fromStatus("Handshake", err)
	}
	if resp.GetProtocolVersion() != ProtocolVersion {
		return HandshakeInfo{}, fmt.Errorf("cloudprovider: provider chose protocol version %d, not offered", resp.GetProtocolVersion())
	}
	c := resp.GetCapabilities()
	info := HandshakeInfo{ProtocolVersion: resp.GetProtocolVersion(), ProviderName: resp.GetProviderName(),
		ProviderVersion: resp.GetProviderVersion(), Instances: c.GetInstances(), Zones: c.GetZones(),
		LoadBalancers: c.GetLoadBalancers(), Routes: c.GetRoutes()}
	r.mu.Lock()
	r.info = &info
	r.mu.Unlock()
	return info, nil
}

func (r *Remote) handshake() (HandshakeInfo, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info == nil {
		return HandshakeInfo{}, false
	}
	return *r.info, true
}

// Name is the provider's name from the last handshake.
func (r *Remote) Name() string {
	info, _ := r.handshake()
	return info.ProviderName
}

func (r *Remote) Instances() (Instances, bool) {
	info, _ := r.handshake()
	return r, info.Instances
}

func (r *Remote) Zones() (Zones, bool) {
	info, _ := r.handshake()
	return r, info.Zones
}

func (r *Remote) LoadBalancers() (LoadBalancers, bool) {
	info, _ := r.handshake()
	return r, info.LoadBalancers
}

func (r *Remote) Routes() (Routes, bool) {
	info, _ := r.handshake()
	return r, info.Routes
}

func (r *Remote) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.timeout)
}

func (r *Remote) InstanceExists(ctx context.Context, node Node) (bool, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.InstanceExists(ctx, nodeToPB(node))
	return resp.GetValue(), fromStatus("InstanceExists", err)
}

func (r *Remote) InstanceShutdown(ctx context.Context, node Node) (bool, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.InstanceShutdown(ctx, nodeToPB(node))
	return resp.GetValue(), fromStatus("InstanceShutdown", err)
}

func (r *Remote) InstanceMetadata(ctx context.Context, node Node) (*InstanceMetadata, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.InstanceMetadata(ctx, nodeToPB(node))
	if err != nil {
		return nil, fromStatus("InstanceMetadata", err)
	}
	return metadataFromPB(resp), nil
}

func (r *Remote) GetZone(ctx context.Context, node Node) (Zone, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.GetZone(ctx, nodeToPB(node))
	if err != nil {
		return Zone{}, fromStatus("GetZone", err)
	}
	return Zone{Zone: resp.GetZone(), Region: resp.GetRegion()}, nil
}

func (r *Remote) GetLoadBalancer(ctx context.Context, cluster string, svc *Service) (*LoadBalancerStatus, bool, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.GetLoadBalancer(ctx, &pb.LoadBalancerRequest{ClusterName: cluster, Service: serviceToPB(svc)})
	if err != nil {
		return nil, false, fromStatus("GetLoadBalancer", err)
	}
	return statusFromPB(resp.GetStatus()), resp.GetExists(), nil
}

func (r *Remote) EnsureLoadBalancer(ctx context.Context, cluster string, svc *Service, nodes []Node) (*LoadBalancerStatus, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.EnsureLoadBalancer(ctx, &pb.LoadBalancerRequest{ClusterName: cluster, Service: serviceToPB(svc), Nodes: nodesToPB(nodes)})
	if err != nil {
		return nil, fromStatus("EnsureLoadBalancer", err)
	}
	return statusFromPB(resp), nil
}

func (r *Remote) UpdateLoadBalancer(ctx context.Context, cluster string, svc *Service, nodes []Node) error {
	ctx, cancel := r.call(ctx)
	defer cancel()
	_, err := r.c.UpdateLoadBalancer(ctx, &pb.LoadBalancerRequest{ClusterName: cluster, Service: serviceToPB(svc), Nodes: nodesToPB(nodes)})
	return fromStatus("UpdateLoadBalancer", err)
}

func (r *Remote) EnsureLoadBalancerDeleted(ctx context.Context, cluster string, svc *Service) error {
	ctx, cancel := r.call(ctx)
	defer cancel()
	_, err := r.c.EnsureLoadBalancerDeleted(ctx, &pb.LoadBalancerRequest{ClusterName: cluster, Service: serviceToPB(svc)})
	return fromStatus("EnsureLoadBalancerDeleted", err)
}

func (r *Remote) ListRoutes(ctx context.Context, cluster string) ([]Route, error) {
	ctx, cancel := r.call(ctx)
	defer cancel()
	resp, err := r.c.ListRoutes(ctx, &pb.ListRoutesRequest{ClusterName: cluster})
	if err != nil {
		return nil, fromStatus("ListRoutes", err)
	}
	out := make([]Route, 0, len(resp.GetRoutes()))
	for _, rt := range resp.GetRoutes() {
		out = append(out, routeFromPB(rt))
	}
	return out, nil
}

func (r *Remote) CreateRoute(ctx context.Context, cluster, nameHint string, route Route) error {
	ctx, cancel := r.call(ctx)
	defer cancel()
	_, err := r.c.CreateRoute(ctx, &pb.RouteRequest{ClusterName: cluster, NameHint: nameHint, Route: routeToPB(route)})
	return fromStatus("CreateRoute", err)
}

func (r *Remote) DeleteRoute(ctx context.Context, cluster string, route Route) error {
	ctx, cancel := r.call(ctx)
	defer cancel()
	_, err := r.c.DeleteRoute(ctx, &pb.RouteRequest{ClusterName: cluster, Route: routeToPB(route)})
	return fromStatus("DeleteRoute", err)
}
