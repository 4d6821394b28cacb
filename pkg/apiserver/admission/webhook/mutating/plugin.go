package mutating

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	arv1 "platform.io/client/api/admissionregistration/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/generic"
	"platform.io/platform/pkg/apiserver/patch"
	"platform.io/platform/pkg/apiserver/registry"
)

// PluginName is the plugin's upstream name.
const PluginName = "MutatingAdmissionWebhook"

// Plugin calls mutating webhooks.
type Plugin struct {
	source  *generic.Source
	matcher *generic.Matcher
	caller  *generic.Caller
}

var _ admission.Mutator = (*Plugin)(nil)

// New returns the plugin reading configurations from source.
func New(source *generic.Source, m *generic.Matcher, c *generic.Caller) *Plugin {
	return &Plugin{source: source, matcher: m, caller: c}
}

// Hooks extracts the webhooks of a stored MutatingWebhookConfiguration.
func Hooks(obj meta.Object) ([]generic.Hook, error) {
	c, ok := obj.(*arv1.MutatingWebhookConfiguration)
	if !ok {
		return nil, fmt.Errorf("mutating webhook source: unexpected %T", obj)
	}
	return generic.MutatingHooks(c), nil
}

// Handles implements admission.Interface: every operation.
func (p *Plugin) Handles(admission.Operation) bool { return true }

// Admit implements admission.Mutator.
func (p *Plugin) Admit(ctx context.Context, a *admission.Attributes) error {
	hooks, err := p.source.Hooks(ctx)
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	reinvoke := a.IsReinvoke()
	ifNeededCalled := false
	for i := range hooks {
		h := &hooks[i]
		ifNeeded := h.Reinvocation == arv1.IfNeededReinvocationPolicy
		if reinvoke && !ifNeeded {
			continue
		}
		inv, err := p.matcher.Match(ctx, h, a)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("webhook %q: %w", h.Name, err))
		}
		if inv == nil {
			continue
		}
		changed, err := p.call(ctx, inv, a)
		if err != nil {
			return err
		}
		if changed && ifNeededCalled {
			a.RequestReinvocation()
		}
		ifNeededCalled = ifNeededCalled || ifNeeded
	}
	return nil
}

// call calls one webhook and applies its patch; it reports whether the
// object changed.
func (p *Plugin) call(ctx context.Context, inv *generic.Invocation, a *admission.Attributes) (bool, error) {
	objs := generic.NewObjects(a)
	obj, old, err := objs.For(inv)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	res, err := p.caller.Call(ctx, inv, a, obj, old)
	if res != nil {
		for _, w := range res.Warnings {
			registry.AddWarning(ctx, w)
		}
	}
	if err != nil || res == nil || len(res.Patch) == 0 || obj == nil {
		return false, err
	}
	patched, err := patch.Apply(patch.JSONPatch, obj, res.Patch, nil)
	if err != nil {
		return false, apierrors.NewInternalError(fmt.Errorf("apply the patch of webhook %q: %w", inv.Hook.Name, err))
	}
	if jsonEqual(obj, patched) {
		return false, nil
	}
	out, err := generic.Decode(patched, a.Object)
	if err != nil {
		return false, apierrors.NewInternalError(fmt.Errorf("decode the object patched by webhook %q: %w", inv.Hook.Name, err))
	}
	a.Object = out
	return true, nil
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

// NewFromConfig builds the plugin over the server's stores.
func NewFromConfig(c generic.Config) (*Plugin, error) {
	p, err := c.Build(true, Hooks)
	if err != nil {
		return nil, err
	}
	return New(p.Source, p.Matcher, p.Caller), nil
}
