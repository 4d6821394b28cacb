package audit

import (
	"context"

	"platform.io/platform/pkg/component/authn"
)

type contextKey struct{}

func withRequestAudit(ctx context.Context, ra *requestAudit) context.Context {
	return context.WithValue(ctx, contextKey{}, ra)
}

func requestAuditFrom(ctx context.Context) *requestAudit {
	ra, _ := ctx.Value(contextKey{}).(*requestAudit)
	return ra
}

// SetImpersonatedUser records that the request acts as u; the stages from
// then on carry it as impersonatedUser. It does nothing for a request that
// is not audited.
func SetImpersonatedUser(ctx context.Context, u *authn.User) {
	ra := requestAuditFrom(ctx)
	if ra == nil {
		return
	}
	info := userInfo(u)
	ra.mu.Lock()
	defer ra.mu.Unlock()
	ra.ev.ImpersonatedUser = &info
}

// AddAnnotation sets an annotation on the request's event (a key already
// set keeps its value, as upstream). It does nothing for a request that is
// not audited.
func AddAnnotation(ctx context.Context, key, value string) {
	ra := requestAuditFrom(ctx)
	if ra == nil {
		return
	}
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if _, ok := ra.ev.Annotations[key]; ok {
		return
	}
	if ra.ev.Annotations == nil {
		ra.ev.Annotations = map[string]string{}
	}
	ra.ev.Annotations[key] = value
}
