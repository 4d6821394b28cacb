package generic

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/registry"
)

// Config is what a webhook plugin is built from.
type Config struct {
	Logger     *zap.Logger
	Registerer prometheus.Registerer
	// Store returns the store of a served resource, nil when not served.
	Store func(gr meta.GroupResource) *registry.Store
	// Resources are the served rows (matchPolicy Equivalent); may be nil.
	Resources []*registry.Resource
	// Resolver, when set, wraps the resolution of webhook Services
	// through their Endpoints (tests reach an endpoint's address on
	// loopback, which Endpoints may not hold).
	Resolver func(client.Resolver) client.Resolver
}

// Parts are the pieces of one plugin.
type Parts struct {
	Source  *Source
	Matcher *Matcher
	Caller  *Caller
}

// Build returns the parts of the mutating (or validating) plugin.
func (c Config) Build(mutating bool, hooks func(meta.Object) ([]Hook, error)) (*Parts, error) {
	if c.Store == nil {
		return nil, errors.New("webhook plugin: no stores")
	}
	resource := "validatingwebhookconfigurations"
	if mutating {
		resource = "mutatingwebhookconfigurations"
	}
	stores := map[string]*registry.Store{}
	for _, gr := range []meta.GroupResource{{Group: arv1.GroupName, Resource: resource}, {Resource: "namespaces"}, {Resource: "services"}, {Resource: "endpoints"}} {
		s := c.Store(gr)
		if s == nil {
			return nil, fmt.Errorf("webhook plugin: %s is not served", gr)
		}
		stores[gr.Resource] = s
	}
	lg := c.Logger
	if lg == nil {
		lg = zap.NewNop()
	}
	var resolver client.Resolver = client.StoreResolver{Services: stores["services"], Endpoints: stores["endpoints"]}
	if c.Resolver != nil {
		resolver = c.Resolver(resolver)
	}
	cl := client.New(resolver)
	return &Parts{
		Source:  NewSource(stores[resource], hooks),
		Matcher: NewMatcher(stores["namespaces"], c.Resources),
		Caller:  NewCaller(lg, cl, NewMetrics(c.Registerer), mutating),
	}, nil
}
