package options

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/featuregate"
)

// parse builds the options of d and parses args into them.
func parse(t *testing.T, d Defaults, args ...string) *Options {
	t.Helper()
	o := New(d, featuregate.New(map[featuregate.Feature]featuregate.Spec{"Demo": {Default: false, PreRelease: featuregate.Alpha}}))
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	for _, g := range o.Groups() {
		fs.AddFlagSet(g.Set)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	return o
}

func TestDefaults(t *testing.T) {
	type want struct {
		QPS                   float32
		Burst                 int
		Port                  int
		Lease                 string
		Tolerate, Contention  bool
		ContentType, LockKind string
		Paths                 []string
	}
	tests := []struct {
		name string
		d    Defaults
		want want
	}{
		{"scheduler", SchedulerDefaults(), want{50, 100, 10259, "platform-scheduler", true, true, "application/vnd.platform.protobuf", "endpointsleases", []string{"/healthz"}}},
		{"controller manager", ControllerManagerDefaults(), want{20, 30, 10257, "platform-controller-manager", false, false, "application/vnd.platform.protobuf", "endpointsleases", []string{"/healthz"}}},
		{"cloud controller manager", CloudControllerManagerDefaults(), want{20, 30, 10258, "cloud-controller-manager", false, false, "application/vnd.platform.protobuf", "endpointsleases", []string{"/healthz"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := parse(t, tt.d)
			got := want{o.Generic.QPS, o.Generic.Burst, o.SecureServing.BindPort, o.LeaderElection.ResourceName,
				o.Authentication.TolerateLookupFailure, o.Debugging.EnableContentionProfiling, o.Generic.ContentType,
				o.LeaderElection.ResourceLock, o.Authorization.AlwaysAllowPaths}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("defaults (-want +got):\n%s", diff)
			}
			common := []any{
				o.SecureServing.BindAddress.Equal(net.IPv4zero), o.Authentication.CacheTTL, o.Authentication.SkipLookup,
				o.Authentication.RequestHeader.UsernameHeaders, o.Authentication.RequestHeader.GroupHeaders,
				o.Authentication.RequestHeader.ExtraHeaderPrefixes, o.Authorization.AllowCacheTTL, o.Authorization.DenyCacheTTL,
				o.LeaderElection.LeaderElect, o.LeaderElection.LeaseDuration, o.LeaderElection.RenewDeadline,
				o.LeaderElection.RetryPeriod, o.LeaderElection.ResourceNamespace, o.Debugging.EnableProfiling, o.Logging.Format,
			}
			wantCommon := []any{
				true, 10 * time.Second, false, []string{"x-remote-user"}, []string{"x-remote-group"}, []string{"x-remote-extra-"},
				10 * time.Second, 10 * time.Second, true, 15 * time.Second, 10 * time.Second, 2 * time.Second,
				"platform-system", true, "text",
			}
			if diff := cmp.Diff(wantCommon, common); diff != "" {
				t.Fatalf("shared defaults (-want +got):\n%s", diff)
			}
			if errs := o.Validate(); len(errs) != 0 {
				t.Fatalf("defaults do not validate: %v", errs)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(existing, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	tests := []struct {
		name     string
		args     []string
		wantFlag string
	}{
		{"negative qps", []string{"--platform-api-qps=-1"}, "--platform-api-qps"},
		{"negative burst", []string{"--platform-api-burst=-1"}, "--platform-api-burst"},
		{"bad content type", []string{"--platform-api-content-type=text/plain"}, "--platform-api-content-type"},
		{"port too high", []string{"--secure-port=70000"}, "--secure-port"},
		{"cert without key", []string{"--tls-cert-file=" + existing}, "--tls-cert-file"},
		{"missing key file", []string{"--tls-cert-file=" + existing, "--tls-private-key-file=" + missing}, "--tls-private-key-file"},
		{"negative token ttl", []string{"--authentication-token-webhook-cache-ttl=-1s"}, "--authentication-token-webhook-cache-ttl"},
		{"missing client CA", []string{"--client-ca-file=" + missing}, "--client-ca-file"},
		{"missing authn kubeconfig", []string{"--authentication-kubeconfig=" + missing}, "--authentication-kubeconfig"},
		{"proxy CA without username headers", []string{"--requestheader-client-ca-file=" + existing, "--requestheader-username-headers="}, "--requestheader-username-headers"},
		{"negative allowed ttl", []string{"--authorization-webhook-cache-authorized-ttl=-1s"}, "--authorization-webhook-cache-authorized-ttl"},
		{"negative denied ttl", []string{"--authorization-webhook-cache-unauthorized-ttl=-1s"}, "--authorization-webhook-cache-unauthorized-ttl"},
		{"relative path", []string{"--authorization-always-allow-paths=healthz"}, "--authorization-always-allow-paths"},
		{"inner star", []string{"--authorization-always-allow-paths=/a/*/b"}, "--authorization-always-allow-paths"},
		{"missing authz kubeconfig", []string{"--authorization-kubeconfig=" + missing}, "--authorization-kubeconfig"},
		{"lease not above renew", []string{"--leader-elect-lease-duration=10s"}, "--leader-elect-lease-duration"},
		{"renew not above retry", []string{"--leader-elect-retry-period=10s"}, "--leader-elect-renew-deadline"},
		{"zero retry", []string{"--leader-elect-retry-period=0s"}, "--leader-elect-retry-period"},
		{"unknown lock", []string{"--leader-elect-resource-lock=etcd"}, "--leader-elect-resource-lock"},
		{"empty lock name", []string{"--leader-elect-resource-name="}, "--leader-elect-resource-name"},
		{"empty lock namespace", []string{"--leader-elect-resource-namespace="}, "--leader-elect-resource-namespace"},
		{"bad log format", []string{"--log-format=xml"}, "--log-format"},
		{"negative verbosity", []string{"-v=-1"}, "-v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := parse(t, SchedulerDefaults(), tt.args...).Validate()
			if len(errs) == 0 {
				t.Fatalf("%v validated", tt.args)
			}
			for _, err := range errs {
				if strings.HasPrefix(err.Error(), tt.wantFlag) {
					return
				}
			}
			t.Fatalf("no error names %s: %v", tt.wantFlag, errs)
		})
	}
}

func TestValidArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"leader election off skips its checks", []string{"--leader-elect=false", "--leader-elect-lease-duration=1s"}},
		{"every lock kind", []string{"--leader-elect-resource-lock=leases"}},
		{"prefix path", []string{"--authorization-always-allow-paths=/healthz,/debug/*"}},
		{"json content type", []string{"--platform-api-content-type=application/json"}},
		{"port zero disables serving", []string{"--secure-port=0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := parse(t, ControllerManagerDefaults(), tt.args...).Validate(); len(errs) != 0 {
				t.Fatalf("%v: %v", tt.args, errs)
			}
		})
	}
}

func TestFlagParseErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"bad bind address", []string{"--bind-address=nope"}},
		{"bad feature gate", []string{"--feature-gates=Unknown=true"}},
		{"bad version", []string{"--version=maybe"}},
		{"bad duration", []string{"--leader-elect-lease-duration=soon"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := New(SchedulerDefaults(), featuregate.New(map[featuregate.Feature]featuregate.Spec{}))
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			fs.SetOutput(&bytes.Buffer{})
			for _, g := range o.Groups() {
				fs.AddFlagSet(g.Set)
			}
			err := fs.Parse(tt.args)
			flag, _, _ := strings.Cut(strings.TrimPrefix(tt.args[0], "--"), "=")
			if err == nil || !strings.Contains(err.Error(), flag) {
				t.Fatalf("Parse(%v) = %v, want an error naming %s", tt.args, err, flag)
			}
		})
	}
}

func TestVersionFlag(t *testing.T) {
	tests := []struct {
		args     []string
		want     bool
		contains string
	}{
		{nil, false, ""},
		{[]string{"--version"}, true, "platform-scheduler v"},
		{[]string{"--version=raw"}, true, "version.Info{"},
		{[]string{"--version=false"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			o := parse(t, SchedulerDefaults(), tt.args...)
			var buf bytes.Buffer
			if got := o.Version.PrintIfRequested(&buf, "platform-scheduler"); got != tt.want || !strings.Contains(buf.String(), tt.contains) {
				t.Fatalf("printed %v %q, want %v containing %q", got, buf.String(), tt.want, tt.contains)
			}
		})
	}
}

func TestHelpGroups(t *testing.T) {
	o := New(SchedulerDefaults(), featuregate.New(map[featuregate.Feature]featuregate.Spec{"Demo": {PreRelease: featuregate.Beta}}))
	cmd := &cobra.Command{Use: "platform-scheduler", Long: "The scheduler.", RunE: func(*cobra.Command, []string) error { return nil }}
	cli.AddGroups(cmd, o.Groups())
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	order := []string{
		"Generic flags:", "--kubeconfig", "--platform-api-qps float32", "(default 50)",
		"Secure serving flags:", "--secure-port int", "(default 10259)",
		"Authentication flags:", "--authentication-tolerate-lookup-failure", "--requestheader-username-headers",
		"Authorization flags:", "--authorization-always-allow-paths", "[/healthz]",
		"Leader election flags:", "--leader-elect-resource-lock", "endpointsleases",
		"Debugging flags:", "--profiling",
		"Feature gates flags:", "Demo=true|false (BETA - default=false)",
		"Logging flags:", "--log-format",
		"Misc flags:", "--version",
	}
	pos := 0
	for _, s := range order {
		i := strings.Index(help[pos:], s)
		if i < 0 {
			t.Fatalf("help lacks %q after offset %d:\n%s", s, pos, help)
		}
		pos += i + len(s)
	}
}
