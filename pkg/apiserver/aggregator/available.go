package aggregator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/controller"

	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/authz/rbac"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

// The reasons of the Available condition, as upstream's.
const (
	ReasonPassed               = "Passed"
	ReasonLocal                = "Local"
	ReasonServiceNotFound      = "ServiceNotFound"
	ReasonMissingEndpoints     = "MissingEndpoints"
	ReasonServiceAccessError   = "ServiceAccessError"
	ReasonFailedDiscoveryCheck = "FailedDiscoveryCheck"
)

// CheckUser is the user the discovery checks are made as, in the
// front-proxy headers: the aggregator itself, with every right, as
// upstream's checks are.
var CheckUser = authn.User{Name: "system:platform-aggregator", Groups: []string{authn.SystemPrivilegedGroup}}

// availability is the outcome of one check.
type availability struct {
	status  apiregv1.ConditionStatus
	reason  string
	message string
}

// reconcile checks the APIService name, writes its Available condition
// when it changed, and visits it again after the check interval.
func (a *Aggregator) reconcile(ctx context.Context, name string) (controller.Result, error) {
	a.mu.RLock()
	b := a.services[name]
	a.mu.RUnlock()
	if b == nil {
		return controller.Result{}, nil
	}
	got := a.check(ctx, b)
	a.fetchOpenAPIV2(ctx, b, got.status == apiregv1.ConditionTrue)
	if err := a.writeCondition(ctx, name, got); err != nil {
		if apierrors.IsNotFound(err) {
			return controller.Result{}, nil
		}
		return controller.Result{}, err
	}
	return controller.Result{RequeueAfter: a.cfg.CheckInterval}, nil
}

// check resolves the APIService's Service and asks its server for the
// group version's discovery document.
func (a *Aggregator) check(ctx context.Context, b *backend) availability {
	ref := b.svc.Spec.Service
	if ref == nil {
		return availability{apiregv1.ConditionTrue, ReasonLocal, "Local APIServices are always available"}
	}
	if _, err := a.cfg.Services.GetCached(ctx, ref.Namespace, ref.Name); apierrors.IsNotFound(err) {
		return availability{apiregv1.ConditionFalse, ReasonServiceNotFound, fmt.Sprintf("service/%s in %q is not present", ref.Name, ref.Namespace)}
	}
	addr, err := a.resolver.Resolve(ctx, ref.Namespace, ref.Name, port(ref))
	if err != nil {
		return resolveFailure(ref, err)
	}
	u := url.URL{Scheme: "https", Host: addr, Path: "/apis/" + b.svc.Spec.Group + "/" + b.svc.Spec.Version}
	code, _, err := a.get(ctx, b, addr, u.Path, 1<<20)
	if err != nil {
		return availability{apiregv1.ConditionFalse, ReasonFailedDiscoveryCheck, fmt.Sprintf("failing or missing response from %s: %v", u.String(), err)}
	}
	if code < http.StatusOK || code >= http.StatusMultipleChoices {
		return availability{apiregv1.ConditionFalse, ReasonFailedDiscoveryCheck, fmt.Sprintf("failing or missing response from %s: bad status from %s: %d", u.String(), u.String(), code)}
	}
	return availability{apiregv1.ConditionTrue, ReasonPassed, "all checks passed"}
}

// maxOpenAPIBytes bounds an aggregated server's OpenAPI v2 document.
const maxOpenAPIBytes = 32 << 20

// fetchOpenAPIV2 refreshes the v2 document of b's server when it is
// available and forgets it when not; a server without one (404) or with a
// larger one has none.
func (a *Aggregator) fetchOpenAPIV2(ctx context.Context, b *backend, available bool) {
	var doc []byte
	if available && a.cfg.OpenAPIV2 != nil {
		ref := b.svc.Spec.Service
		if addr, err := a.resolver.Resolve(ctx, ref.Namespace, ref.Name, port(ref)); err == nil {
			code, body, err := a.get(ctx, b, addr, "/openapi/v2", maxOpenAPIBytes)
			if err == nil && code == http.StatusOK && len(body) <= maxOpenAPIBytes {
				doc = body
			} else {
				a.lg.Debug("no OpenAPI v2 document from an aggregated server", zap.String("apiService", b.svc.Name), zap.Int("code", code), zap.Error(err))
			}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if doc == nil {
		delete(a.openAPIV2, b.svc.Name)
		return
	}
	a.openAPIV2[b.svc.Name] = doc
}

// get asks b's server at addr for path as the aggregator, within the
// check timeout, and returns the status and up to limit+1 bytes of body.
func (a *Aggregator) get(ctx context.Context, b *backend, addr, path string, limit int64) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.CheckTimeout)
	defer cancel()
	u := url.URL{Scheme: "https", Host: addr, Path: path}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json")
	a.setUser(req.Header, &CheckUser)
	resp, err := b.transport.RoundTrip(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	return resp.StatusCode, body, err
}

// resolveFailure names why an existing Service could not be resolved: a
// missing Endpoints object or address is MissingEndpoints.
func resolveFailure(ref *apiregv1.ServiceReference, err error) availability {
	if errors.Is(err, client.ErrNoEndpoint) || apierrors.IsNotFound(err) {
		return availability{apiregv1.ConditionFalse, ReasonMissingEndpoints, fmt.Sprintf("endpoints for service/%s in %q have no addresses with port %d: %v", ref.Name, ref.Namespace, port(ref), err)}
	}
	return availability{apiregv1.ConditionFalse, ReasonServiceAccessError, err.Error()}
}

// writeCondition sets the Available condition through /status unless it
// already says the same; the transition time moves only when the status
// changes.
func (a *Aggregator) writeCondition(ctx context.Context, name string, got availability) error {
	// Admission sees the write as the API server's own.
	ctx = authn.WithUser(ctx, rbac.APIServerUser())
	_, _, err := a.cfg.APIServices.Update(ctx, "", name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		s := cur.(*apiregv1.APIService)
		c := s.Condition(apiregv1.Available)
		if c == nil {
			s.Status.Conditions = append(s.Status.Conditions, apiregv1.APIServiceCondition{Type: apiregv1.Available})
			c = &s.Status.Conditions[len(s.Status.Conditions)-1]
		}
		if c.Status == got.status && c.Reason == got.reason && c.Message == got.message {
			return s, nil // the store keeps an unchanged object as it is
		}
		if c.Status != got.status {
			c.LastTransitionTime = meta.NewTime(a.cfg.Now().UTC().Truncate(time.Second))
			a.lg.Info("APIService availability changed", zap.String("apiService", name), zap.String("status", string(got.status)),
				zap.String("reason", got.reason), zap.String("message", got.message))
		}
		c.Status, c.Reason, c.Message = got.status, got.reason, got.message
		return s, nil
	}, registry.UpdateOptions{Part: registry.StatusPart, Patch: true})
	return err
}
