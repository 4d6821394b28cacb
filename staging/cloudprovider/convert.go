package cloudprovider

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"platform.io/client/cloudprovider/pb"
)

func nodeToPB(n Node) *pb.NodeRequest {
	return &pb.NodeRequest{NodeName: n.Name, ProviderId: n.ProviderID}
}

func nodeFromPB(n *pb.NodeRequest) Node {
	return Node{Name: n.GetNodeName(), ProviderID: n.GetProviderId()}
}

func nodesToPB(ns []Node) []*pb.NodeRequest {
	out := make([]*pb.NodeRequest, len(ns))
	for i, n := range ns {
		out[i] = nodeToPB(n)
	}
	return out
}

func nodesFromPB(ns []*pb.NodeRequest) []Node {
	out := make([]Node, len(ns))
	for i, n := range ns {
		out[i] = nodeFromPB(n)
	}
	return out
}

func serviceToPB(s *Service) *pb.Service {
	out := &pb.Service{Namespace: s.Namespace, Name: s.Name, Uid: s.UID, LoadBalancerIp: s.LoadBalancerIP,
		SourceRanges: s.SourceRanges, Annotations: s.Annotations}
	for _, p := range s.Ports {
		out.Ports = append(out.Ports, &pb.ServicePort{Name: p.Name, Protocol: p.Protocol, Port: p.Port, NodePort: p.NodePort})
	}
	return out
}

func serviceFromPB(s *pb.Service) *Service {
	out := &Service{Namespace: s.GetNamespace(), Name: s.GetName(), UID: s.GetUid(), LoadBalancerIP: s.GetLoadBalancerIp(),
		SourceRanges: s.GetSourceRanges(), Annotations: s.GetAnnotations()}
	for _, p := range s.GetPorts() {
		out.Ports = append(out.Ports, ServicePort{Name: p.GetName(), Protocol: p.GetProtocol(), Port: p.GetPort(), NodePort: p.GetNodePort()})
	}
	return out
}

func statusToPB(s *LoadBalancerStatus) *pb.LoadBalancerStatus {
	out := &pb.LoadBalancerStatus{}
	if s == nil {
		return out
	}
	for _, in := range s.Ingress {
		out.Ingress = append(out.Ingress, &pb.LoadBalancerIngress{Ip: in.IP, Hostname: in.Hostname})
	}
	return out
}

func statusFromPB(s *pb.LoadBalancerStatus) *LoadBalancerStatus {
	out := &LoadBalancerStatus{}
	for _, in := range s.GetIngress() {
		out.Ingress = append(out.Ingress, Ingress{IP: in.GetIp(), Hostname: in.GetHostname()})
	}
	return out
}

func routeToPB(r Route) *pb.Route {
	return &pb.Route{Name: r.Name, TargetNode: r.TargetNode, DestinationCidr: r.DestinationCIDR}
}

func routeFromPB(r *pb.Route) Route {
	return Route{Name: r.GetName(), TargetNode: r.GetTargetNode(), DestinationCIDR: r.GetDestinationCidr()}
}

func metadataToPB(m *InstanceMetadata) *pb.InstanceMetadataResponse {
	out := &pb.InstanceMetadataResponse{ProviderId: m.ProviderID, InstanceType: m.InstanceType, Zone: m.Zone.Zone, Region: m.Zone.Region}
	for _, a := range m.Addresses {
		out.Addresses = append(out.Addresses, &pb.NodeAddress{Type: a.Type, Address: a.Address})
	}
	return out
}

func metadataFromPB(m *pb.InstanceMetadataResponse) *InstanceMetadata {
	out := &InstanceMetadata{ProviderID: m.GetProviderId(), InstanceType: m.GetInstanceType(),
		Zone: Zone{Zone: m.GetZone(), Region: m.GetRegion()}}
	for _, a := range m.GetAddresses() {
		out.Addresses = append(out.Addresses, Address{Type: a.GetType(), Address: a.GetAddress()})
	}
	return out
}

// toStatus is the gRPC status of a provider's error.
func toStatus(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrInstanceNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, ErrNotImplemented):
		return status.Error(codes.Unimplemented, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	}
	return status.Error(codes.Unknown, err.Error())
}

// fromStatus is the error of a call that failed with err, wrapping the
// package's sentinels where a code maps to one.
func fromStatus(method string, err error) error {
	if err == nil {
		return nil
	}
	st, _ := status.FromError(err)
	switch st.Code() {
	case codes.NotFound:
		return fmt.Errorf("%s: %w: %s", method, ErrInstanceNotFound, st.Message())
	case codes.Unimplemented:
		return fmt.Errorf("%s: %w: %s", method, ErrNotImplemented, st.Message())
	}
	return fmt.Errorf("%s: %w", method, err)
}
