package endpoints

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the endpoints row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "endpoints", Singular: "endpoints", Kind: "Endpoints",
		ShortNames:          []string{"ep"},
		Namespaced:          true,
		New:                 func() meta.Object { return &corev1.Endpoints{} },
		AllowCreateOnUpdate: true,
		Strategy: registry.Typed[corev1.Endpoints]{
			DefaultFunc:        setDefaults,
			ValidateFunc:       validate,
			ValidateUpdateFunc: func(ep, _ *corev1.Endpoints) field.ErrorList { return validate(ep) },
		},
		Table: tableColumns,
	}
}

// setDefaults sets the protocol of every port to TCP when unset.
func setDefaults(ep *corev1.Endpoints) {
	for i := range ep.Subsets {
		for j := range ep.Subsets[i].Ports {
			if ep.Subsets[i].Ports[j].Protocol == "" {
				ep.Subsets[i].Ports[j].Protocol = corev1.ProtocolTCP
			}
		}
	}
}

func validate(ep *corev1.Endpoints) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("subsets")
	for i := range ep.Subsets {
		errs = append(errs, validateSubset(&ep.Subsets[i], p.Index(i))...)
	}
	return errs
}

// validateSubset checks one subset: it needs at least one address, and
// its ports need names when there are several.
func validateSubset(ss *corev1.EndpointSubset, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
		errs = append(errs, field.Required(p, "must specify `addresses` or `notReadyAddresses`"))
	}
	for i := range ss.Addresses {
		errs = append(errs, validateAddress(&ss.Addresses[i], p.Child("addresses").Index(i))...)
	}
	for i := range ss.NotReadyAddresses {
		errs = append(errs, validateAddress(&ss.NotReadyAddresses[i], p.Child("notReadyAddresses").Index(i))...)
	}
	names := map[string]bool{}
	for i, port := range ss.Ports {
		pp := p.Child("ports").Index(i)
		switch {
		case port.Name == "" && len(ss.Ports) > 1:
			errs = append(errs, field.Required(pp.Child("name"), ""))
		case port.Name != "":
			errs = append(errs, corevalidation.Name(pp.Child("name"), port.Name, validation.IsDNS1123Label)...)
			if names[port.Name] {
				errs = append(errs, field.Duplicate(pp.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		errs = append(errs, corevalidation.PortNum(pp.Child("port"), port.Port)...)
		errs = append(errs, corevalidation.Protocol(pp.Child("protocol"), port.Protocol)...)
		if port.AppProtocol != nil {
			errs = append(errs, corevalidation.QualifiedName(pp.Child("appProtocol"), *port.AppProtocol)...)
		}
	}
	return errs
}

// validateAddress checks a backend address: a routable IP, and a DNS
// label hostname and DNS subdomain node name when given.
func validateAddress(a *corev1.EndpointAddress, p *field.Path) field.ErrorList {
	errs := corevalidation.NonSpecialIP(p.Child("ip"), a.IP)
	if a.Hostname != "" {
		errs = append(errs, corevalidation.Name(p.Child("hostname"), a.Hostname, validation.IsDNS1123Label)...)
	}
	if a.NodeName != nil {
		errs = append(errs, corevalidation.Name(p.Child("nodeName"), *a.NodeName, validation.IsDNS1123Subdomain)...)
	}
	return errs
}
