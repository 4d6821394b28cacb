package audit

import (
	"platform.io/platform/pkg/apiserver/audit/auditctx"
	"platform.io/platform/pkg/component/authn"
)

var _ auditctx.Recorder = (*requestAudit)(nil)

// SetImpersonatedUser implements auditctx.Recorder: the stages from then
// on carry u as impersonatedUser.
func (ra *requestAudit) SetImpersonatedUser(u *authn.User) {
	info := userInfo(u)
	ra.mu.Lock()
	defer ra.mu.Unlock()
	ra.ev.ImpersonatedUser = &info
}

// AddAnnotation implements auditctx.Recorder: a key already set keeps its
// value, as upstream.
func (ra *requestAudit) AddAnnotation(key, value string) {
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
