package v1

import "platform.io/client/api/meta"

// Endpoints lists the addresses and ports backing a service, grouped into
// subsets. Upstream deprecates it in favour of EndpointSlice but still serves it.
type Endpoints struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Subsets []EndpointSubset `json:"subsets,omitempty" protobuf:"bytes,2,rep,name=subsets"`
}

// EndpointsList is a list of Endpoints.
type EndpointsList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Endpoints `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// EndpointSubset is a set of addresses sharing a set of ports; every address
// serves every port.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty" protobuf:"bytes,1,rep,name=addresses"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty" protobuf:"bytes,2,rep,name=notReadyAddresses"`
	Ports             []EndpointPort    `json:"ports,omitempty" protobuf:"bytes,3,rep,name=ports"`
}

// EndpointAddress is one backend address and the object behind it.
type EndpointAddress struct {
	IP        string           `json:"ip" protobuf:"bytes,1,opt,name=ip"`
	Hostname  string           `json:"hostname,omitempty" protobuf:"bytes,3,opt,name=hostname"`
	NodeName  *string          `json:"nodeName,omitempty" protobuf:"bytes,4,opt,name=nodeName"`
	TargetRef *ObjectReference `json:"targetRef,omitempty" protobuf:"bytes,2,opt,name=targetRef"`
}

// EndpointPort is one port of an endpoint subset; Name matches the service port's name.
type EndpointPort struct {
	Name        string   `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Port        int32    `json:"port" protobuf:"varint,2,opt,name=port"`
	Protocol    Protocol `json:"protocol,omitempty" protobuf:"bytes,3,opt,name=protocol,casttype=Protocol"`
	AppProtocol *string  `json:"appProtocol,omitempty" protobuf:"bytes,4,opt,name=appProtocol"`
}
