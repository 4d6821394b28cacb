package generic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	admv1 "platform.io/client/api/admission/v1"
	arv1 "platform.io/client/api/admissionregistration/v1"
	authnv1 "platform.io/client/api/authentication/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/webhook/client"
	"platform.io/platform/pkg/apiserver/admission/webhook/review"
	"platform.io/platform/pkg/apiserver/audit/auditctx"
	"platform.io/platform/pkg/apiserver/validation"
)

// Caller calls webhooks of one type (mutating or validating).
type Caller struct {
	lg       *zap.Logger
	client   *client.Client
	metrics  *Metrics
	mutating bool
	typ      string
	now      func() time.Time
}

// NewCaller returns the caller of mutating (or validating) webhooks.
func NewCaller(lg *zap.Logger, c *client.Client, m *Metrics, mutating bool) *Caller {
	typ := TypeValidate
	if mutating {
		typ = TypeAdmit
	}
	return &Caller{lg: lg, client: c, metrics: m, mutating: mutating, typ: typ, now: time.Now}
}

// Result is an answer that admitted the request.
type Result struct {
	// Patch is the webhook's JSON Patch, nil when none.
	Patch []byte
	// Warnings are to be sent to the client.
	Warnings []string
}

// Call sends the request, with obj and old as inv's webhook sees them, to
// the webhook. It returns nil and an API error when the request must fail:
// the webhook's refusal (its status message and code), a 400 for a dry
// run the webhook's side effects forbid, a 500 for a failed call under
// failurePolicy Fail. A failed call under Ignore returns nil, nil.
func (c *Caller) Call(ctx context.Context, inv *Invocation, a *admission.Attributes, obj, old []byte) (*Result, error) {
	h := inv.Hook
	if a.DryRun && h.SideEffects != arv1.SideEffectClassNone && h.SideEffects != arv1.SideEffectClassNoneOnDryRun {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("admission webhook %q does not support dry run", h.Name))
	}
	op := string(a.Operation)
	start := c.now()
	resp, code, err := c.exchange(ctx, inv, a, obj, old)
	d := c.now().Sub(start)
	if err != nil {
		fail := h.FailurePolicy != arv1.Ignore
		c.metrics.observe(h.Name, c.typ, op, d, code, fail)
		if !fail {
			c.lg.Warn("admission webhook call failed; failurePolicy Ignore admits the request",
				zap.String("webhook", h.Name), zap.String("configuration", h.Config), zap.Error(err))
			return nil, nil
		}
		c.metrics.rejected(h.Name, c.typ, op, RejectionCallingWebhook, code)
		return nil, apierrors.NewInternalError(fmt.Errorf("failed calling webhook %q: %w", h.Name, err))
	}
	c.metrics.observe(h.Name, c.typ, op, d, code, !resp.Allowed)
	c.annotate(ctx, h.Name, resp.AuditAnnotations)
	if !resp.Allowed {
		se := Denial(h.Name, resp.Result)
		c.metrics.rejected(h.Name, c.typ, op, RejectionNoError, int(se.ErrStatus.Code))
		return &Result{Warnings: resp.Warnings}, se
	}
	return &Result{Patch: resp.Patch, Warnings: resp.Warnings}, nil
}

// annotate adds a webhook's auditAnnotations to the request's audit
// event, each key prefixed with the webhook's name as upstream does
// ("<webhook>/<key>"); a key that is not a qualified name that way is
// logged and left out, and a key already set keeps its first value.
func (c *Caller) annotate(ctx context.Context, webhook string, annotations map[string]string) {
	for k, v := range annotations {
		key := webhook + "/" + k
		if errs := validation.IsQualifiedName(key); len(errs) > 0 {
			c.lg.Warn("admission webhook audit annotation dropped: invalid key",
				zap.String("webhook", webhook), zap.String("key", key), zap.Strings("errors", errs))
			continue
		}
		auditctx.AddAnnotation(ctx, key, v)
	}
}

// exchange posts the AdmissionReview and checks the answer; it returns
// the answer's HTTP code (0 when there was none).
func (c *Caller) exchange(ctx context.Context, inv *Invocation, a *admission.Attributes, obj, old []byte) (*review.Response, int, error) {
	h := inv.Hook
	v, err := review.Choose(h.ReviewVersions)
	if err != nil {
		return nil, 0, err
	}
	req, err := Request(inv, a, obj, old)
	if err != nil {
		return nil, 0, err
	}
	body, err := review.Marshal(v, req)
	if err != nil {
		return nil, 0, err
	}
	cctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	out, code, err := c.client.Post(cctx, &h.ClientConfig, body)
	if err != nil {
		return nil, code, fmt.Errorf("failed to call webhook: %w", err)
	}
	resp, err := review.Parse(out, v, req.UID, c.mutating)
	if err != nil {
		return nil, code, fmt.Errorf("received invalid webhook response: %w", err)
	}
	return resp, code, nil
}

// Request builds the AdmissionRequest of a for inv.
func Request(inv *Invocation, a *admission.Attributes, obj, old []byte) (*admv1.AdmissionRequest, error) {
	options, err := encodeOptions(a.Options)
	if err != nil {
		return nil, err
	}
	dryRun := a.DryRun
	return &admv1.AdmissionRequest{
		UID:                meta.UID(uuid.NewString()),
		Kind:               admv1.GroupVersionKind{Group: inv.Kind.Group, Version: inv.Kind.Version, Kind: inv.Kind.Kind},
		Resource:           admv1.GroupVersionResource{Group: inv.Resource.Group, Version: inv.Resource.Version, Resource: inv.Resource.Resource},
		SubResource:        inv.Subresource,
		RequestKind:        &admv1.GroupVersionKind{Group: a.Kind.Group, Version: a.Kind.Version, Kind: a.Kind.Kind},
		RequestResource:    &admv1.GroupVersionResource{Group: a.Resource.Group, Version: a.Resource.Version, Resource: a.Resource.Resource},
		RequestSubResource: a.Subresource,
		Name:               a.Name,
		Namespace:          a.Namespace,
		Operation:          admv1.Operation(a.Operation),
		UserInfo:           userInfo(a),
		Object:             obj,
		OldObject:          old,
		DryRun:             &dryRun,
		Options:            options,
	}, nil
}

func userInfo(a *admission.Attributes) authnv1.UserInfo {
	if a.User == nil {
		return authnv1.UserInfo{}
	}
	u := authnv1.UserInfo{Username: a.User.Name, UID: a.User.UID, Groups: a.User.Groups}
	if len(a.User.Extra) > 0 {
		u.Extra = make(map[string]authnv1.ExtraValue, len(a.User.Extra))
		for k, v := range a.User.Extra {
			u.Extra[k] = v
		}
	}
	return u
}

// encodeOptions writes the request's options as a meta.platform.io/v1 kind.
func encodeOptions(o any) (json.RawMessage, error) {
	var tm *meta.TypeMeta
	var kind string
	switch v := o.(type) {
	case nil:
		return nil, nil
	case *meta.CreateOptions:
		tm, kind = &v.TypeMeta, "CreateOptions"
	case *meta.UpdateOptions:
		tm, kind = &v.TypeMeta, "UpdateOptions"
	case *meta.PatchOptions:
		tm, kind = &v.TypeMeta, "PatchOptions"
	case *meta.DeleteOptions:
		tm, kind = &v.TypeMeta, "DeleteOptions"
	}
	if tm != nil {
		tm.APIVersion, tm.Kind = meta.GroupName+"/v1", kind
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("encode options: %w", err)
	}
	return b, nil
}

// Denial is the client's error for a webhook's refusal, as upstream makes
// it: the webhook's status with its message prefixed by the webhook's
// name, its code kept when it is an error code (400 otherwise).
func Denial(name string, result *meta.Status) *apierrors.StatusError {
	st := meta.Status{}
	if result != nil {
		st = *result
	}
	st.TypeMeta = meta.TypeMeta{Kind: "Status", APIVersion: "v1"}
	if st.Code < http.StatusBadRequest {
		st.Code = http.StatusBadRequest
	}
	if st.Status == "" || st.Status == meta.StatusSuccess {
		st.Status = meta.StatusFailure
	}
	deniedBy := fmt.Sprintf("admission webhook %q denied the request", name)
	switch {
	case st.Message != "":
		st.Message = deniedBy + ": " + st.Message
	case st.Reason != "":
		st.Message = deniedBy + ": " + string(st.Reason)
	default:
		st.Message = deniedBy + " without explanation"
	}
	return &apierrors.StatusError{ErrStatus: st}
}
