package options

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestAuthorizationValidate(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of the errors, in order; none means valid
	}{
		{name: "defaults"},
		{name: "ordered list", args: []string{"--authorization-mode=Node,RBAC,AlwaysDeny"}},
		{name: "unknown", args: []string{"--authorization-mode=RBAC,Magic"}, want: []string{`"Magic" is not a valid mode`}},
		{name: "duplicate", args: []string{"--authorization-mode=RBAC,Node,RBAC"}, want: []string{`"RBAC" is given more than once`}},
		{name: "empty", args: []string{"--authorization-mode="}, want: []string{"at least one mode"}},
		{name: "ABAC without policy", args: []string{"--authorization-mode=ABAC"}, want: []string{"required by authorization mode ABAC"}},
		{name: "ABAC with policy", args: []string{"--authorization-mode=ABAC", "--authorization-policy-file=p.jsonl"}},
		{name: "policy without ABAC", args: []string{"--authorization-policy-file=p.jsonl"}, want: []string{"without authorization mode ABAC"}},
		{name: "Webhook without config", args: []string{"--authorization-mode=Webhook"}, want: []string{"required by authorization mode Webhook"}},
		{name: "Webhook with config", args: []string{"--authorization-mode=Webhook", "--authorization-webhook-config-file=w", "--authorization-webhook-version=v1"}},
		{name: "config without Webhook", args: []string{"--authorization-webhook-config-file=w"}, want: []string{"without authorization mode Webhook"}},
		{name: "bad version", args: []string{"--authorization-webhook-version=v2"}, want: []string{"neither v1beta1 nor v1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := NewAuthorization()
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			errs := o.Validate()
			if len(errs) != len(tc.want) {
				t.Fatalf("errors %v, want %d containing %q", errs, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("error %q, want it to contain %q", errs[i], w)
				}
			}
		})
	}
}

func TestAuthorizationDefaults(t *testing.T) {
	o := NewAuthorization()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o.AddFlags(fs)
	want := map[string]string{
		"authorization-mode": "[AlwaysAllow]", "authorization-webhook-version": "v1beta1",
		"authorization-webhook-cache-authorized-ttl": "5m0s", "authorization-webhook-cache-unauthorized-ttl": "30s",
		"authorization-policy-file": "", "authorization-webhook-config-file": "",
	}
	for name, def := range want {
		if f := fs.Lookup(name); f == nil || f.DefValue != def {
			t.Errorf("--%s default %v, want %q", name, f, def)
		}
	}
}
