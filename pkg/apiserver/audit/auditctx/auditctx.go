package auditctx

import (
	"context"

	"platform.io/platform/pkg/component/authn"
)

// Recorder is the audit event of a request while it is served.
type Recorder interface {
	// AddAnnotation sets an annotation; a key already set keeps its value.
	AddAnnotation(key, value string)
	// SetImpersonatedUser records the user the request acts as.
	SetImpersonatedUser(u *authn.User)
}

type key struct{}

// With returns ctx carrying r.
func With(ctx context.Context, r Recorder) context.Context {
	return context.WithValue(ctx, key{}, r)
}

func from(ctx context.Context) Recorder {
	r, _ := ctx.Value(key{}).(Recorder)
	return r
}

// AddAnnotation annotates the request's audit event, if it has one.
func AddAnnotation(ctx context.Context, key, value string) {
	if r := from(ctx); r != nil {
		r.AddAnnotation(key, value)
	}
}

// SetImpersonatedUser records on the request's audit event, if it has
// one, that the request acts as u.
func SetImpersonatedUser(ctx context.Context, u *authn.User) {
	if r := from(ctx); r != nil {
		r.SetImpersonatedUser(u)
	}
}
