package validating

import (
	"context"
	"fmt"
	"sync"

	arv1 "platform.io/client/api/admissionregistration/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/generic"
	"platform.io/platform/pkg/apiserver/registry"
)

// PluginName is the plugin's upstream name.
const PluginName = "ValidatingAdmissionWebhook"

// Plugin calls validating webhooks.
type Plugin struct {
	source  *generic.Source
	matcher *generic.Matcher
	caller  *generic.Caller
}

var _ admission.Validator = (*Plugin)(nil)

// New returns the plugin reading configurations from source.
func New(source *generic.Source, m *generic.Matcher, c *generic.Caller) *Plugin {
	return &Plugin{source: source, matcher: m, caller: c}
}

// Hooks extracts the webhooks of a stored ValidatingWebhookConfiguration.
func Hooks(obj meta.Object) ([]generic.Hook, error) {
	c, ok := obj.(*arv1.ValidatingWebhookConfiguration)
	if !ok {
		return nil, fmt.Errorf("validating webhook source: unexpected %T", obj)
	}
	return generic.ValidatingHooks(c), nil
}

// Handles implements admission.Interface: every operation.
func (p *Plugin) Handles(admission.Operation) bool { return true }

type call struct {
	inv      *generic.Invocation
	obj, old []byte
	res      *generic.Result
	err      error
}

// Validate implements admission.Validator.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	hooks, err := p.source.Hooks(ctx)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	objs := generic.NewObjects(a)
	var calls []*call
	for i := range hooks {
		h := &hooks[i]
		inv, err := p.matcher.Match(ctx, h, a)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("webhook %q: %w", h.Name, err))
		}
		if inv == nil {
			continue
		}
		obj, old, err := objs.For(inv)
		if err != nil {
			return apierrors.NewInternalError(err)
		}
		calls = append(calls, &call{inv: inv, obj: obj, old: old})
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.res, c.err = p.caller.Call(ctx, c.inv, a, c.obj, c.old)
		}()
	}
	wg.Wait()
	var first error
	for _, c := range calls {
		if c.res != nil {
			for _, w := range c.res.Warnings {
				registry.AddWarning(ctx, w)
			}
		}
		if first == nil {
			first = c.err
		}
	}
	return first
}

// NewFromConfig builds the plugin over the server's stores.
func NewFromConfig(c generic.Config) (*Plugin, error) {
	p, err := c.Build(false, Hooks)
	if err != nil {
		return nil, err
	}
	return New(p.Source, p.Matcher, p.Caller), nil
}
