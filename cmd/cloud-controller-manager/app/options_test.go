package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"platform.io/platform/pkg/component/daemon"
)

// TestOptionsValidate: the cloud provider flags and --controllers are
// checked with the flag named in the error.
func TestOptionsValidate(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cloud.yaml")
	if err := os.WriteFile(cfg, []byte("region: r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		set   func(o *Options)
		wants []string // substrings of the errors, in any order; none for valid
	}{
		{"endpoint", func(o *Options) { o.Cloud.Provider, o.Cloud.Endpoint = "simcloud", "unix:///run/p.sock" }, nil},
		{"binary with config", func(o *Options) {
			o.Cloud.Provider, o.Cloud.Binary, o.Cloud.Config = "simcloud", "/bin/p", cfg
		}, nil},
		{"nothing", func(*Options) {}, []string{"--cloud-provider", "--cloud-provider-endpoint or --cloud-provider-binary"}},
		{"tcp endpoint", func(o *Options) { o.Cloud.Provider, o.Cloud.Endpoint = "x", "tcp://1.2.3.4:5" }, []string{"--cloud-provider-endpoint"}},
		{"config without binary", func(o *Options) {
			o.Cloud.Provider, o.Cloud.Endpoint, o.Cloud.Config = "x", "unix:///p", cfg
		}, []string{"--cloud-config"}},
		{"missing config", func(o *Options) {
			o.Cloud.Provider, o.Cloud.Binary, o.Cloud.Config = "x", "/bin/p", "/nonexistent.yaml"
		}, []string{"--cloud-config"}},
		{"unknown controller", func(o *Options) {
			o.Cloud.Provider, o.Cloud.Endpoint, o.Controllers = "x", "unix:///p", []string{"*", "-route", "nodeipam"}
		}, []string{`"nodeipam" is not a known controller`}},
		{"zero timeout", func(o *Options) {
			o.Cloud.Provider, o.Cloud.Endpoint, o.Cloud.CallTimeout = "x", "unix:///p", 0
		}, []string{"--cloud-provider-call-timeout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOptions(Descriptors())
			tc.set(o)
			errs := o.Validate()
			if len(errs) != len(tc.wants) {
				t.Fatalf("errors %v, want %d", errs, len(tc.wants))
			}
			all := ""
			for _, e := range errs {
				all += e.Error() + "\n"
			}
			for _, w := range tc.wants {
				if !strings.Contains(all, w) {
					t.Errorf("errors %q lack %q", all, w)
				}
			}
		})
	}
}

// TestHelpAndDefaults: --help groups the cloud and per-loop flags and
// shows the spec's defaults.
func TestHelpAndDefaults(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := daemon.Execute(Spec(), []string{"--help"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ") // the usage text is wrapped
	for _, want := range []string{
		"Cloud provider flags:", "--cloud-provider-endpoint", "--cluster-name string The instance prefix", `(default "platform")`,
		"Controllers flags:", "cloud-node, cloud-node-lifecycle, route, service",
		"--secure-port int", "(default 10258)", "--platform-api-qps float32", "(default 20)", "(default 30)",
		`(default "cloud-controller-manager")`, `(default "endpointsleases")`, `(default "platform-system")`,
		"--concurrent-service-syncs", "--node-status-update-frequency", "--node-monitor-period",
		"--route-reconciliation-period", "--configure-cloud-routes", "--allocate-node-cidrs", "--cluster-cidr",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}
