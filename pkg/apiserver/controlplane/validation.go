package controlplane

import (
	"context"
	"net"
	"regexp"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// EndpointsResource returns a copy of the endpoints row for the
// controller's own writes: its validation also accepts loopback addresses,
// which the API refuses in Endpoints but which a single-host cluster (and
// every test) advertises. Everything else is validated as usual; clients
// still go through the row itself.
func EndpointsResource(r *registry.Resource) *registry.Resource {
	c := *r
	c.Strategy = loopbackStrategy{r.Strategy}
	return &c
}

// addressIP is the field path of an address's ip in Endpoints.
var addressIP = regexp.MustCompile(`^subsets\[\d+\]\.(notReadyA|a)ddresses\[\d+\]\.ip$`)

// loopbackStrategy drops the errors about loopback addresses in ip fields.
type loopbackStrategy struct{ registry.Strategy }

func (s loopbackStrategy) Validate(ctx context.Context, obj meta.Object) field.ErrorList {
	return dropLoopback(s.Strategy.Validate(ctx, obj))
}

func (s loopbackStrategy) ValidateUpdate(ctx context.Context, obj, old meta.Object) field.ErrorList {
	return dropLoopback(s.Strategy.ValidateUpdate(ctx, obj, old))
}

func dropLoopback(errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if v, ok := e.BadValue.(string); ok && e.Type == field.TypeInvalid && addressIP.MatchString(e.Field) {
			if ip := net.ParseIP(v); ip != nil && ip.IsLoopback() {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}
