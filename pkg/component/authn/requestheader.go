package authn

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// RequestHeader trusts identity headers set by a verified front proxy.
type RequestHeader struct {
	cfg RequestHeaderConfig
	v   *verifier
}

// NewRequestHeader returns the method trusting the proxy cfg describes.
func NewRequestHeader(cfg RequestHeaderConfig) *RequestHeader {
	return &RequestHeader{cfg: cfg, v: newVerifier(cfg.ClientCA)}
}

// AuthenticateRequest implements Authenticator. Headers without a verified
// proxy certificate are ignored, and a certificate that does not verify or
// is not among the allowed names is an error.
func (a *RequestHeader) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	name := firstValue(r.Header, a.cfg.UsernameHeaders)
	if name == "" {
		return nil, false, nil
	}
	leaf, err := a.v.verifiedLeaf(r)
	if leaf == nil || err != nil {
		return nil, false, err
	}
	if len(a.cfg.AllowedNames) > 0 && !slices.Contains(a.cfg.AllowedNames, leaf.Subject.CommonName) {
		return nil, false, fmt.Errorf("front-proxy certificate %q is not among the allowed names", leaf.Subject.CommonName)
	}
	u := &User{Name: name, Groups: allValues(r.Header, a.cfg.GroupHeaders), Extra: a.extra(r.Header)}
	a.Strip(r.Header)
	return u, true, nil
}

// extra collects the extra keys: the rest of each prefixed header name,
// lowercased and unescaped.
func (a *RequestHeader) extra(h http.Header) map[string][]string {
	var extra map[string][]string
	for name, values := range h {
		lower := strings.ToLower(name)
		for _, p := range a.cfg.ExtraHeaderPrefixes {
			p = strings.ToLower(p)
			if !strings.HasPrefix(lower, p) || len(lower) == len(p) {
				continue
			}
			key, err := url.PathUnescape(lower[len(p):])
			if err != nil {
				key = lower[len(p):]
			}
			if extra == nil {
				extra = map[string][]string{}
			}
			extra[key] = append(extra[key], values...)
			break
		}
	}
	return extra
}

// Strip removes the identity headers so handlers never see them.
func (a *RequestHeader) Strip(h http.Header) {
	for _, name := range slices.Concat(a.cfg.UsernameHeaders, a.cfg.GroupHeaders) {
		h.Del(name)
	}
	for name := range h {
		for _, p := range a.cfg.ExtraHeaderPrefixes {
			if strings.HasPrefix(strings.ToLower(name), strings.ToLower(p)) {
				delete(h, name)
			}
		}
	}
}

func firstValue(h http.Header, names []string) string {
	for _, n := range names {
		if v := strings.TrimSpace(h.Get(n)); v != "" {
			return v
		}
	}
	return ""
}

func allValues(h http.Header, names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, h.Values(n)...)
	}
	return out
}
