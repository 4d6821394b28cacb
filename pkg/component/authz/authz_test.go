package authz

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	authzv1 "platform.io/client/api/authorization/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/authn"
)

// fakeReviewer allows alice, denies mallory explicitly, has no opinion on
// anyone else, and counts calls.
type fakeReviewer struct {
	mu    sync.Mutex
	calls int
	specs []authzv1.SubjectAccessReviewSpec
	err   error
}

func (f *fakeReviewer) Review(_ context.Context, spec authzv1.SubjectAccessReviewSpec) (authzv1.SubjectAccessReviewStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.specs = append(f.specs, spec)
	switch {
	case f.err != nil:
		return authzv1.SubjectAccessReviewStatus{}, f.err
	case spec.User == "alice":
		return authzv1.SubjectAccessReviewStatus{Allowed: true}, nil
	case spec.User == "mallory":
		return authzv1.SubjectAccessReviewStatus{Denied: true, Reason: "banned"}, nil
	}
	return authzv1.SubjectAccessReviewStatus{}, nil
}

func TestAuthorizer(t *testing.T) {
	alice := &authn.User{Name: "alice", Groups: []string{"devs"}}
	tests := []struct {
		name      string
		noReview  bool
		reviewErr error
		user      *authn.User
		path      string
		want      Decision
		wantCalls int
		wantErr   bool
	}{
		{name: "always-allowed path", user: authn.AnonymousUser(), path: "/healthz", want: Allow},
		{name: "always-allowed prefix", user: authn.AnonymousUser(), path: "/debug/flags/v", want: Allow},
		{name: "prefix does not match the bare directory", user: authn.AnonymousUser(), path: "/debug/flags", want: NoOpinion, wantCalls: 1},
		{name: "always-allowed group", user: &authn.User{Name: "root", Groups: []string{"system:masters"}}, path: "/metrics", want: Allow},
		{name: "allowed by review", user: alice, path: "/metrics", want: Allow, wantCalls: 1},
		{name: "denied by review", user: &authn.User{Name: "mallory"}, path: "/metrics", want: Deny, wantCalls: 1},
		{name: "no opinion", user: authn.AnonymousUser(), path: "/metrics", want: NoOpinion, wantCalls: 1},
		{name: "no reviewer", noReview: true, user: alice, path: "/metrics", want: NoOpinion},
		{name: "review error", reviewErr: errors.New("down"), user: alice, path: "/metrics", want: NoOpinion, wantCalls: 1, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rev := &fakeReviewer{err: tt.reviewErr}
			cfg := Config{AlwaysAllowPaths: []string{"/healthz", "/debug/flags/*"}, AlwaysAllowGroups: []string{"system:masters"},
				Reviewer: rev, AllowTTL: time.Minute, DenyTTL: time.Minute}
			if tt.noReview {
				cfg.Reviewer = nil
			}
			a, err := New(zap.NewNop(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := a.Authorize(context.Background(), Attributes{User: tt.user, Verb: "get", Path: tt.path})
			if d != tt.want || (err != nil) != tt.wantErr || rev.calls != tt.wantCalls {
				t.Fatalf("got %v, %v after %d calls; want %v, error %v, %d calls", d, err, rev.calls, tt.want, tt.wantErr, tt.wantCalls)
			}
			if tt.wantCalls > 0 {
				na := rev.specs[0].NonResourceAttributes
				if na == nil || na.Path != tt.path || na.Verb != "get" || rev.specs[0].User != tt.user.Name {
					t.Fatalf("review spec %+v", rev.specs[0])
				}
			}
		})
	}
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestReviewCache(t *testing.T) {
	tests := []struct {
		name      string
		user      string
		advance   time.Duration
		wantCalls int
	}{
		{name: "allowed cached", user: "alice", advance: 9 * time.Second, wantCalls: 1},
		{name: "allowed expires", user: "alice", advance: 10 * time.Second, wantCalls: 2},
		{name: "denied cached", user: "mallory", advance: 2 * time.Second, wantCalls: 1},
		{name: "denied expires on its own ttl", user: "mallory", advance: 3 * time.Second, wantCalls: 2},
		{name: "no opinion uses the denied ttl", user: "nobody", advance: 3 * time.Second, wantCalls: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(100, 0)}
			rev := &fakeReviewer{}
			a, err := New(zap.NewNop(), Config{Reviewer: rev, AllowTTL: 10 * time.Second, DenyTTL: 3 * time.Second, Now: clk.now})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				a.Authorize(context.Background(), Attributes{User: &authn.User{Name: tt.user}, Verb: "get", Path: "/metrics"})
				clk.t = clk.t.Add(tt.advance)
			}
			if rev.calls != tt.wantCalls {
				t.Fatalf("%d calls, want %d", rev.calls, tt.wantCalls)
			}
		})
	}
}

func TestValidatePath(t *testing.T) {
	tests := []struct {
		path    string
		wantErr bool
	}{
		{"/healthz", false}, {"/debug/*", false}, {"/*", false},
		{"healthz", true}, {"/a/*/b", true}, {"*", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if err := ValidatePath(tt.path); (err != nil) != tt.wantErr {
				t.Fatalf("ValidatePath(%q) = %v", tt.path, err)
			}
		})
	}
}

func TestWithAuthorization(t *testing.T) {
	fixed := func(d Decision, reason string, err error) Authorizer {
		return union{authorizerFunc(func(context.Context, Attributes) (Decision, string, error) { return d, reason, err })}
	}
	tests := []struct {
		name     string
		a        Authorizer
		wantCode int
		wantMsg  string
	}{
		{name: "allowed", a: fixed(Allow, "", nil), wantCode: 200},
		{name: "no opinion is forbidden", a: fixed(NoOpinion, "", nil), wantCode: 403,
			wantMsg: `forbidden: User "system:anonymous" cannot post path "/metrics"`},
		{name: "denied with reason", a: fixed(Deny, "banned", nil), wantCode: 403, wantMsg: "banned"},
		{name: "error", a: fixed(NoOpinion, "", errors.New("down")), wantCode: 500, wantMsg: "down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := WithAuthorization(zap.NewNop(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), tt.a)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/metrics", nil))
			if rec.Code != tt.wantCode {
				t.Fatalf("code %d, want %d", rec.Code, tt.wantCode)
			}
			if tt.wantMsg == "" {
				return
			}
			var st meta.Status
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.Kind != "Status" || !strings.Contains(st.Message, tt.wantMsg) {
				t.Fatalf("body %s (err %v), want a Status with %q", rec.Body, err, tt.wantMsg)
			}
		})
	}
}

type authorizerFunc func(context.Context, Attributes) (Decision, string, error)

func (f authorizerFunc) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	return f(ctx, a)
}

// TestResourceRequests: a request the resolver recognizes is reviewed as
// a resource request, with its verb, and is not let through by an
// always-allowed path; any other is reviewed by path.
func TestResourceRequests(t *testing.T) {
	pods := &authzv1.ResourceAttributes{Namespace: "ns", Verb: "list", Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods"}
	resolve := func(r *http.Request) *authzv1.ResourceAttributes {
		if strings.HasPrefix(r.URL.Path, "/apis/") {
			ra := *pods
			return &ra
		}
		return nil
	}
	tests := []struct {
		name     string
		path     string
		user     string
		wantCode int
		wantSpec authzv1.SubjectAccessReviewSpec
		wantMsg  string
	}{
		{name: "resource request allowed", path: "/apis/x", user: "alice", wantCode: 200,
			wantSpec: authzv1.SubjectAccessReviewSpec{User: "alice", ResourceAttributes: pods}},
		{name: "resource request refused in upstream's words", path: "/apis/x", user: "bob", wantCode: 403,
			wantSpec: authzv1.SubjectAccessReviewSpec{User: "bob", ResourceAttributes: pods},
			wantMsg:  `pods.metrics.k8s.io is forbidden: User "bob" cannot list resource "pods" in API group "metrics.k8s.io" in the namespace "ns"`},
		{name: "always-allowed prefix does not cover resources", path: "/apis/healthz", user: "bob", wantCode: 403,
			wantSpec: authzv1.SubjectAccessReviewSpec{User: "bob", ResourceAttributes: pods}},
		{name: "path request", path: "/metrics", user: "alice", wantCode: 200,
			wantSpec: authzv1.SubjectAccessReviewSpec{User: "alice", NonResourceAttributes: &authzv1.NonResourceAttributes{Path: "/metrics", Verb: "get"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rev := &fakeReviewer{}
			a, err := New(zap.NewNop(), Config{AlwaysAllowPaths: []string{"/apis/healthz*"}, Reviewer: rev})
			if err != nil {
				t.Fatal(err)
			}
			h := WithResourceAuthorization(zap.NewNop(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), a, resolve)
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", tt.path, nil)
			req = req.WithContext(authn.WithUser(req.Context(), &authn.User{Name: tt.user}))
			h.ServeHTTP(rec, req)
			if rec.Code != tt.wantCode {
				t.Fatalf("code %d, want %d: %s", rec.Code, tt.wantCode, rec.Body)
			}
			if len(rev.specs) != 1 {
				t.Fatalf("%d reviews, want 1", len(rev.specs))
			}
			if diff := cmp.Diff(tt.wantSpec, rev.specs[0]); diff != "" {
				t.Fatalf("review (-want +got):\n%s", diff)
			}
			if tt.wantMsg != "" && !strings.Contains(rec.Body.String(), strings.ReplaceAll(tt.wantMsg, `"`, `\"`)) {
				t.Fatalf("body %s, want %q", rec.Body, tt.wantMsg)
			}
		})
	}
}
