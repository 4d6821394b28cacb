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
