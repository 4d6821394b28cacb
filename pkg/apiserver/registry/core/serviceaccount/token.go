package serviceaccount

import (
	"context"
	"fmt"
	"strings"
	"time"

	authnv1 "platform.io/client/api/authentication/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	sa "platform.io/platform/pkg/apiserver/serviceaccount"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Token lifetimes of a TokenRequest, as upstream: the default, the least
// and the most a request may ask for (in seconds).
const (
	DefaultExpirationSeconds = 3600
	MinExpirationSeconds     = 600
	MaxExpirationSeconds     = 1 << 32
)

var tokenRequestKind = meta.GroupVersionKind{Group: authnv1.GroupName, Version: "v1", Kind: "TokenRequest"}

// upstreamAPIVersion is what the stock clients (kubectl create token) call
// this group version. A request sent in it is answered in it, as those
// clients decode only the group they know.
const upstreamAPIVersion = "authentication.k8s.io/v1"

// TokenConfig is what the token subresource needs.
type TokenConfig struct {
	// Tokens is the server's token setup; the subresource is served only
	// when it is enabled.
	Tokens *sa.Config
	// Objects reads the pods and secrets a token is bound to.
	Objects sa.Objects
}

// issueToken serves POST serviceaccounts/{name}/token: it checks the
// request and the bound object and answers with a signed token. Like
// upstream, it issues a token on a dry run too, as nothing is stored.
func issueToken(c TokenConfig) registry.Action {
	return func(ctx context.Context, s *registry.Store, namespace, name string, decode registry.Decoder, _ bool) (meta.Object, error) {
		req, err := decodeTokenRequest(decode, namespace, name)
		if err != nil {
			return nil, err
		}
		obj, err := s.Get(ctx, namespace, name)
		if err != nil {
			return nil, err
		}
		acct := obj.(*corev1.ServiceAccount)
		if len(req.Spec.Audiences) == 0 {
			req.Spec.Audiences = c.Tokens.APIAudiences
		}
		if req.Spec.ExpirationSeconds == nil {
			secs := int64(DefaultExpirationSeconds)
			req.Spec.ExpirationSeconds = &secs
		}
		if errs := validateTokenRequest(req); len(errs) > 0 {
			return nil, apierrors.NewInvalid(tokenRequestKind, "", errs.Causes())
		}
		r := sa.Request{Namespace: namespace, ServiceAccount: sa.Ref{Name: acct.Name, UID: string(acct.UID)}, Audiences: req.Spec.Audiences}
		if ref := req.Spec.BoundObjectRef; ref != nil {
			if r.Pod, r.Secret, err = bound(ctx, c.Objects, namespace, name, ref); err != nil {
				return nil, err
			}
		}
		if max := int64(c.Tokens.MaxExpiration / time.Second); max > 0 && *req.Spec.ExpirationSeconds > max {
			registry.AddWarning(ctx, fmt.Sprintf("requested expiration of %d seconds shortened to %d seconds", *req.Spec.ExpirationSeconds, max))
			*req.Spec.ExpirationSeconds = max
		}
		r.Lifetime = time.Duration(*req.Spec.ExpirationSeconds) * time.Second
		token, exp, err := c.Tokens.Issuer.Issue(r)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		apiVersion := tokenRequestKind.GroupVersion().String()
		if req.APIVersion == upstreamAPIVersion {
			apiVersion = upstreamAPIVersion
		}
		req.TypeMeta = meta.TypeMeta{APIVersion: apiVersion, Kind: tokenRequestKind.Kind}
		req.Name, req.Namespace = acct.Name, acct.Namespace
		req.CreationTimestamp = meta.NewTime(exp.Add(-r.Lifetime).UTC())
		req.Status = authnv1.TokenRequestStatus{Token: token, ExpirationTimestamp: meta.NewTime(exp.UTC())}
		return req, nil
	}
}

// decodeTokenRequest reads the body; a name or namespace in it must match
// the URL's.
func decodeTokenRequest(decode registry.Decoder, namespace, name string) (*authnv1.TokenRequest, error) {
	req := &authnv1.TokenRequest{}
	if err := decode(req); err != nil {
		return nil, err
	}
	if req.Kind != "" && req.Kind != tokenRequestKind.Kind {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a TokenRequest, got kind %q", req.Kind))
	}
	if v := req.APIVersion; v != "" && v != tokenRequestKind.GroupVersion().String() && v != upstreamAPIVersion {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a TokenRequest of %s, got apiVersion %q", tokenRequestKind.GroupVersion(), v))
	}
	var errs field.ErrorList
	if req.Name != "" && req.Name != name {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), req.Name, "must match the service account name if specified"))
	}
	if req.Namespace != "" && req.Namespace != namespace {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "namespace"), req.Namespace, "must match the service account namespace if specified"))
	}
	if len(errs) > 0 {
		return nil, apierrors.NewInvalid(tokenRequestKind, name, errs.Causes())
	}
	return req, nil
}

// validateTokenRequest checks the requested lifetime, in upstream's words.
func validateTokenRequest(req *authnv1.TokenRequest) field.ErrorList {
	p := field.NewPath("spec", "expirationSeconds")
	switch secs := *req.Spec.ExpirationSeconds; {
	case secs < MinExpirationSeconds:
		return field.ErrorList{field.Invalid(p, secs, "may not specify a duration less than 10 minutes")}
	case secs > MaxExpirationSeconds:
		return field.ErrorList{field.Invalid(p, secs, "may not specify a duration larger than 2^32 seconds")}
	}
	return nil
}

// bound looks up the object a token is to be bound to: a pod running as the
// service account, or a secret, with the uid the reference names if any.
func bound(ctx context.Context, objs sa.Objects, namespace, saName string, ref *authnv1.BoundObjectReference) (pod, secret *sa.Ref, err error) {
	group, version, found := strings.Cut(ref.APIVersion, "/")
	if !found {
		group, version = "", ref.APIVersion
	}
	var uid meta.UID
	switch {
	case group == "" && ref.Kind == "Pod":
		p, err := objs.Pod(ctx, namespace, ref.Name)
		if err != nil {
			return nil, nil, err
		}
		if p.Spec.ServiceAccountName != saName {
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", saName))
		}
		uid, pod = p.UID, &sa.Ref{Name: p.Name, UID: string(p.UID)}
	case group == "" && ref.Kind == "Secret":
		s, err := objs.Secret(ctx, namespace, ref.Name)
		if err != nil {
			return nil, nil, err
		}
		uid, secret = s.UID, &sa.Ref{Name: s.Name, UID: string(s.UID)}
	default:
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("cannot bind token to object of type %s/%s, Kind=%s", group, version, ref.Kind))
	}
	if ref.UID != "" && ref.UID != uid {
		return nil, nil, apierrors.NewConflict(meta.GroupResource{Group: group, Resource: ref.Kind}, ref.Name,
			fmt.Errorf("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", ref.UID))
	}
	return pod, secret, nil
}
