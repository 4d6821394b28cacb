package plugins

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/defaulttolerationseconds"
	"platform.io/platform/pkg/apiserver/admission/namespacelifecycle"
	"platform.io/platform/pkg/apiserver/admission/noderestriction"
	"platform.io/platform/pkg/apiserver/admission/priority"
	"platform.io/platform/pkg/apiserver/admission/serviceaccount"
	"platform.io/platform/pkg/apiserver/registry"
)

// Deps is what plugins are built from.
type Deps struct {
	Logger     *zap.Logger
	Registerer prometheus.Registerer
	// Store returns the store of a served resource (in its storage
	// version's group), or nil when it is not served.
	Store func(gr meta.GroupResource) *registry.Store
	// NotReadyTolerationSeconds and UnreachableTolerationSeconds are the
	// --default-*-toleration-seconds of DefaultTolerationSeconds.
	NotReadyTolerationSeconds    int64
	UnreachableTolerationSeconds int64
}

// Plugin is one row of the table.
type Plugin struct {
	Name string
	// DefaultOn plugins run unless --disable-admission-plugins names them.
	DefaultOn bool
	New       func(d Deps) (admission.Interface, error)
}

// All returns every plugin, in the order they run: upstream's order.
func All() []Plugin {
	return []Plugin{
		{Name: namespacelifecycle.Name, DefaultOn: true, New: func(d Deps) (admission.Interface, error) {
			return namespacelifecycle.New(d.Store(meta.GroupResource{Resource: "namespaces"})), nil
		}},
		{Name: serviceaccount.Name, DefaultOn: true, New: newServiceAccount},
		{Name: noderestriction.Name, New: newNodeRestriction},
		{Name: priority.Name, DefaultOn: true, New: func(d Deps) (admission.Interface, error) {
			return priority.NewFromStore(d.Logger.Named("priority"), d.Store(priority.ClassesResource))
		}},
		{Name: defaulttolerationseconds.Name, DefaultOn: true, New: func(d Deps) (admission.Interface, error) {
			return &defaulttolerationseconds.Plugin{NotReadySeconds: d.NotReadyTolerationSeconds, UnreachableSeconds: d.UnreachableTolerationSeconds}, nil
		}},
	}
}

// Names returns the names of all plugins, in order.
func Names() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.Name)
	}
	return out
}

// DefaultOn returns the names of the plugins on by default.
func DefaultOn() []string {
	var out []string
	for _, p := range All() {
		if p.DefaultOn {
			out = append(out, p.Name)
		}
	}
	return out
}

// NewChain builds the chain of the enabled plugins: those on by default or
// in enable, minus those in disable, in the table's order. An unknown name
// is an error.
func NewChain(d Deps, enable, disable []string) (*admission.Chain, error) {
	known := map[string]bool{}
	for _, p := range All() {
		known[p.Name] = true
	}
	on := map[string]bool{}
	for _, n := range DefaultOn() {
		on[n] = true
	}
	for _, n := range enable {
		if !known[n] {
			return nil, fmt.Errorf("unknown admission plugin %q; known: %v", n, Names())
		}
		on[n] = true
	}
	for _, n := range disable {
		if !known[n] {
			return nil, fmt.Errorf("unknown admission plugin %q; known: %v", n, Names())
		}
		delete(on, n)
	}
	var named []admission.Named
	for _, p := range All() {
		if !on[p.Name] {
			continue
		}
		pl, err := p.New(d)
		if err != nil {
			return nil, fmt.Errorf("admission plugin %s: %w", p.Name, err)
		}
		named = append(named, admission.Named{Name: p.Name, Plugin: pl})
	}
	return admission.NewChain(named, admission.NewMetrics(d.Registerer)), nil
}

func newServiceAccount(d Deps) (admission.Interface, error) {
	sa, err := store(d, "", "serviceaccounts")
	if err != nil {
		return nil, err
	}
	return serviceaccount.New(sa), nil
}

func newNodeRestriction(d Deps) (admission.Interface, error) {
	pods, err := store(d, "", "pods")
	if err != nil {
		return nil, err
	}
	nodes, err := store(d, "", "nodes")
	if err != nil {
		return nil, err
	}
	return noderestriction.New(pods, nodes), nil
}

// store returns the store of a resource a plugin reads, or an error when
// the server does not serve it.
func store(d Deps, group, resource string) (*registry.Store, error) {
	gr := meta.GroupResource{Group: group, Resource: resource}
	if d.Store == nil {
		return nil, fmt.Errorf("needs %s, and no stores were given", gr)
	}
	s := d.Store(gr)
	if s == nil {
		return nil, fmt.Errorf("needs %s, which is not served", gr)
	}
	return s, nil
}
