package options

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/audit"
)

func TestAuditDefaults(t *testing.T) {
	o := NewAudit()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o.AddFlags(fs)
	want := map[string]string{
		"audit-log-mode": "blocking", "audit-webhook-mode": "batch", "audit-log-format": "json",
		"audit-log-version": "audit.platform.io/v1", "audit-webhook-version": "audit.platform.io/v1",
		"audit-log-batch-buffer-size": "10000", "audit-webhook-batch-buffer-size": "10000",
		"audit-log-batch-max-size": "1", "audit-webhook-batch-max-size": "400", "audit-webhook-batch-max-wait": "30s",
		"audit-webhook-batch-throttle-enable": "true", "audit-webhook-batch-throttle-qps": "10", "audit-webhook-batch-throttle-burst": "15",
		"audit-webhook-initial-backoff": "10s", "audit-log-truncate-enabled": "false",
		"audit-log-truncate-max-event-size": "102400", "audit-log-truncate-max-batch-size": "10485760",
		"audit-webhook-truncate-max-event-size": "102400", "audit-webhook-truncate-max-batch-size": "10485760",
	}
	for name, v := range want {
		f := fs.Lookup(name)
		if f == nil {
			t.Errorf("--%s missing", name)
			continue
		}
		if f.DefValue != v {
			t.Errorf("--%s default %q, want %q", name, f.DefValue, v)
		}
	}
}

func TestAuditValidate(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // substring of the error; "" for none
	}{
		{"off", nil, ""},
		{"log", []string{"--audit-log-path=/tmp/x"}, ""},
		{"upstream version", []string{"--audit-log-path=/tmp/x", "--audit-log-version=audit.k8s.io/v1"}, ""},
		{"bad version", []string{"--audit-log-path=/tmp/x", "--audit-log-version=audit.k8s.io/v1beta1"}, "--audit-log-version"},
		{"bad mode", []string{"--audit-log-path=/tmp/x", "--audit-log-mode=async"}, "--audit-log-mode"},
		{"bad format", []string{"--audit-log-path=/tmp/x", "--audit-log-format=xml"}, "--audit-log-format"},
		{"negative maxage", []string{"--audit-log-path=/tmp/x", "--audit-log-maxage=-1"}, "--audit-log-maxage"},
		{"batch buffer", []string{"--audit-log-path=/tmp/x", "--audit-log-mode=batch", "--audit-log-batch-buffer-size=0"}, "buffer-size"},
		{"throttle", []string{"--audit-webhook-config-file=/tmp/k", "--audit-webhook-batch-throttle-qps=0"}, "throttle"},
		{"truncate sizes", []string{"--audit-webhook-config-file=/tmp/k", "--audit-webhook-truncate-enabled", "--audit-webhook-truncate-max-batch-size=10"}, "max-batch-size"},
		{"unused options unchecked", []string{"--audit-log-mode=async"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewAudit()
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, err := range o.Validate() {
				msgs = append(msgs, err.Error())
			}
			got := strings.Join(msgs, "; ")
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("errors %q, want one with %q", got, tt.want)
			}
		})
	}
}

func TestAuditApplyTo(t *testing.T) {
	dir := t.TempDir()
	pol := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(pol, []byte("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := audit.NewMetrics(prometheus.NewRegistry())
	o := NewAudit()
	o.PolicyFile, o.Log.Path = pol, filepath.Join(dir, "audit.log")
	c := audit.Config{Metrics: m}
	if err := o.ApplyTo(zap.NewNop(), &c); err != nil {
		t.Fatal(err)
	}
	if c.Backend == nil || c.Policy == nil || c.Backend.String() != "ignoreErrors<log>" {
		t.Errorf("backend %v", c.Backend)
	}
	o.Log.Path = filepath.Join(dir, "missing", "audit.log")
	if err := o.ApplyTo(zap.NewNop(), &audit.Config{Metrics: m}); err == nil {
		t.Error("a log path that cannot be created was accepted")
	}
	o = NewAudit()
	o.Log.Path = filepath.Join(dir, "audit.log")
	c = audit.Config{Metrics: m}
	if err := o.ApplyTo(zap.NewNop(), &c); err != nil || c.Backend != nil {
		t.Errorf("without a policy: backend %v, err %v", c.Backend, err)
	}
}
