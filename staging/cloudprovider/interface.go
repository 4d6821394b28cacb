package cloudprovider

import (
	"context"
	"errors"
)

// ProtocolVersion is the plugin protocol version this package speaks.
const ProtocolVersion = 1

// Errors a provider returns, and that cross the protocol as gRPC codes.
var (
	// ErrInstanceNotFound: the node's instance does not exist (NOT_FOUND).
	ErrInstanceNotFound = errors.New("cloudprovider: instance not found")
	// ErrNotImplemented: the provider does not implement the part of the
	// interface called (UNIMPLEMENTED).
	ErrNotImplemented = errors.New("cloudprovider: not implemented")
)

// Interface is a cloud provider. Each part is optional: its accessor
// reports whether the provider implements it.
//
// Every method may be called concurrently, must honour ctx's deadline,
// and must be idempotent: the daemon retries a call whose outcome it did
// not see.
type Interface interface {
	// Name is the provider's name, as in --cloud-provider.
	Name() string
	Instances() (Instances, bool)
	Zones() (Zones, bool)
	LoadBalancers() (LoadBalancers, bool)
	Routes() (Routes, bool)
}

// Node names a node to the provider: its name and, once the cloud-node
// loop has set it, its provider ID.
type Node struct {
	Name       string
	ProviderID string
}

// Address is a node address; Type is one of the node address types of
// the API (InternalIP, ExternalIP, Hostname, InternalDNS, ExternalDNS).
type Address struct {
	Type    string
	Address string
}

// Zone is the failure domain and region of an instance.
type Zone struct {
	Zone   string
	Region string
}

// InstanceMetadata is what the cloud-node loop copies onto a node.
type InstanceMetadata struct {
	ProviderID   string
	InstanceType string
	Addresses    []Address
	// Zone is empty when the provider leaves zones to Zones.
	Zone Zone
}

// Instances are the cloud's machines backing the nodes.
type Instances interface {
	// InstanceExists reports whether the node's instance exists.
	InstanceExists(ctx context.Context, node Node) (bool, error)
	// InstanceShutdown reports whether the node's instance exists and is
	// shut down; ErrInstanceNotFound when it does not exist.
	InstanceShutdown(ctx context.Context, node Node) (bool, error)
	// InstanceMetadata returns the instance's identity and addresses;
	// ErrInstanceNotFound when it does not exist.
	InstanceMetadata(ctx context.Context, node Node) (*InstanceMetadata, error)
}

// Zones give the failure domain of a node, for providers whose instance
// metadata lacks it.
type Zones interface {
	GetZone(ctx context.Context, node Node) (Zone, error)
}

// ServicePort is one port of a LoadBalancer Service.
type ServicePort struct {
	Name     string
	Protocol string
	Port     int32
	NodePort int32
}

// Service is what a provider needs to know of a LoadBalancer Service.
type Service struct {
	Namespace, Name, UID string
	Ports                []ServicePort
	LoadBalancerIP       string
	SourceRanges         []string
	Annotations          map[string]string
}

// Ingress is one address of a load balancer.
type Ingress struct {
	IP       string
	Hostname string
}

// LoadBalancerStatus lists a load balancer's ingress addresses.
type LoadBalancerStatus struct {
	Ingress []Ingress
}

// LoadBalancers are the cloud's load balancers, one per Service.
type LoadBalancers interface {
	// GetLoadBalancer returns the service's load balancer, if it exists.
	GetLoadBalancer(ctx context.Context, cluster string, svc *Service) (status *LoadBalancerStatus, exists bool, err error)
	// EnsureLoadBalancer creates or updates the load balancer to carry
	// the service's ports to the nodes, and returns its status.
	EnsureLoadBalancer(ctx context.Context, cluster string, svc *Service, nodes []Node) (*LoadBalancerStatus, error)
	// UpdateLoadBalancer changes the nodes of an existing load balancer.
	UpdateLoadBalancer(ctx context.Context, cluster string, svc *Service, nodes []Node) error
	// EnsureLoadBalancerDeleted deletes the load balancer; nil when it is
	// already gone.
	EnsureLoadBalancerDeleted(ctx context.Context, cluster string, svc *Service) error
}

// Route sends a node's pod CIDR to the node.
type Route struct {
	Name            string
	TargetNode      string
	DestinationCIDR string
}

// Routes are the cloud's route table for the cluster.
type Routes interface {
	ListRoutes(ctx context.Context, cluster string) ([]Route, error)
	// CreateRoute adds route; nameHint is a name the provider may use.
	CreateRoute(ctx context.Context, cluster, nameHint string, route Route) error
	// DeleteRoute removes route; nil when it is already gone.
	DeleteRoute(ctx context.Context, cluster string, route Route) error
}
