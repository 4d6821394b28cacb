package audit

import (
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	auditv1 "platform.io/client/api/audit/v1"
	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// newEvent is the request's event before its first stage.
func newEvent(r *http.Request, id string, level auditv1.Level, a authz.Attributes, received meta.MicroTime) *auditv1.Event {
	ev := &auditv1.Event{
		Level: level, AuditID: id, RequestURI: r.URL.RequestURI(), Verb: a.Verb,
		User: userInfo(a.User), SourceIPs: sourceIPs(r), UserAgent: r.UserAgent(),
		RequestReceivedTimestamp: received,
	}
	if a.ResourceRequest {
		ev.ObjectRef = &auditv1.ObjectReference{
			Resource: a.Resource, Subresource: a.Subresource, Namespace: a.Namespace, Name: a.Name,
			APIGroup: requestedGroup(r.URL.Path), APIVersion: a.APIVersion,
		}
	}
	return ev
}

// requestedGroup is the API group as the path names it (the attributes
// carry the canonical name of an upstream alias): the segment after
// /apis/, or "" for /api/.
func requestedGroup(path string) string {
	rest, ok := strings.CutPrefix(path, "/apis/")
	if !ok {
		return ""
	}
	group, _, _ := strings.Cut(rest, "/")
	return group
}

func userInfo(u *authn.User) authnv1.UserInfo {
	if u == nil {
		return authnv1.UserInfo{}
	}
	info := authnv1.UserInfo{Username: u.Name, UID: u.UID, Groups: slices.Clone(u.Groups)}
	if len(u.Extra) > 0 {
		info.Extra = make(map[string]authnv1.ExtraValue, len(u.Extra))
		for k, v := range u.Extra {
			info.Extra[k] = slices.Clone(v)
		}
	}
	return info
}

// sourceIPs lists the addresses of X-Forwarded-For, then X-Real-Ip, then
// the connection's peer, each once, as upstream does.
func sourceIPs(r *http.Request) []string {
	var ips []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if ip := net.ParseIP(s); ip != nil && !slices.Contains(ips, ip.String()) {
			ips = append(ips, ip.String())
		}
	}
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for _, part := range strings.Split(h, ",") {
			add(part)
		}
	}
	add(r.Header.Get("X-Real-Ip"))
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		add(host)
	} else {
		add(r.RemoteAddr)
	}
	return ips
}

// requestAudit is a request's event while the request runs: the filter and
// the parts it calls (impersonation) complete it, and each stage is sent
// as a copy. mu guards ev.
type requestAudit struct {
	mu sync.Mutex
	ev *auditv1.Event
}

// stage returns a copy of the event at stage s, with f applied first to
// the request's own event (under the lock).
func (ra *requestAudit) stage(s auditv1.Stage, at meta.MicroTime, f func(ev *auditv1.Event)) *auditv1.Event {
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if f != nil {
		f(ra.ev)
	}
	c := *ra.ev
	c.Stage, c.StageTimestamp = s, at
	c.Annotations = maps.Clone(ra.ev.Annotations)
	if ra.ev.ResponseStatus != nil {
		st := *ra.ev.ResponseStatus
		c.ResponseStatus = &st
	}
	return &c
}
