package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/authn"
)

// TestBuildAuthorizer: the modes are built in order from the table, and a
// valid mode without a constructor stops the start with an error.
func TestBuildAuthorizer(t *testing.T) {
	tests := []struct {
		modes   []string
		user    *authn.User
		want    authz.Decision
		wantErr string
	}{
		{modes: []string{options.ModeAlwaysAllow}, want: authz.Allow},
		{modes: []string{options.ModeAlwaysDeny}, user: &authn.User{Name: "a", Groups: []string{"system:masters"}}, want: authz.Allow},
		{modes: []string{options.ModeAlwaysDeny}, user: &authn.User{Name: "a", Groups: []string{"devs"}}, want: authz.Deny},
		{modes: []string{options.ModeAlwaysDeny, options.ModeAlwaysAllow}, want: authz.Deny},
		{modes: []string{options.ModeAlwaysAllow, options.ModeAlwaysDeny}, want: authz.Allow},
		{modes: []string{options.ModeAlwaysAllow, options.ModeWebhook}, wantErr: `mode "Webhook" is not available`},
		{modes: []string{options.ModeABAC}, wantErr: `--authorization-mode ABAC: abac:`},
		{modes: []string{options.ModeRBAC}, wantErr: `RBAC policy is not built`},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %v", strings.Join(tc.modes, ","), tc.user), func(t *testing.T) {
			o := options.New()
			o.Authz.Modes = tc.modes
			s := &Server{lg: zap.NewNop(), opts: o}
			// A table without Webhook stands for a mode not built yet.
			table := authorizationModes()
			delete(table, options.ModeWebhook)
			z, _, err := s.buildAuthorizer(table)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d, _, _ := z.Authorize(context.Background(), authz.Attributes{User: tc.user, Verb: "get", Path: "/"}); d != tc.want {
				t.Errorf("decision %v, want %v", d, tc.want)
			}
		})
	}
}
