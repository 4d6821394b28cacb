package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
)

// fileOpts is a daemon option set with a JSON configuration file that can
// also set the shared lease duration.
type fileOpts struct {
	config string
	color  string
}

func (o *fileOpts) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{cli.Group("Test", func(fs *pflag.FlagSet) {
		fs.StringVar(&o.config, "config", o.config, "config file")
		fs.StringVar(&o.color, "color", o.color, "a color")
	})}
}

func (o *fileOpts) Validate() []error {
	if o.color == "invalid" {
		return []error{errors.New("--color: invalid")}
	}
	return nil
}

func (o *fileOpts) ConfigFile() string { return o.config }

func (o *fileOpts) LoadFile(path string, shared *options.Options) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var f struct {
		Color         string `json:"color"`
		LeaseDuration string `json:"leaseDuration"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return err
	}
	if f.Color != "" {
		o.color = f.Color
	}
	if f.LeaseDuration != "" {
		d, err := time.ParseDuration(f.LeaseDuration)
		if err != nil {
			return err
		}
		shared.LeaderElection.LeaseDuration = d
	}
	return nil
}

func testSpec() Spec {
	return Spec{
		Name:       "test-daemon",
		Defaults:   options.ControllerManagerDefaults(),
		NewOptions: func() Options { return &fileOpts{color: "red"} },
		New: func(context.Context, *Deps) (run.Runnable, error) {
			return nil, errors.New("not run in these tests")
		},
	}
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.json")
	if err := os.WriteFile(file, []byte(`{"color": "blue", "leaseDuration": "20s"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		wantColor string
		wantLease time.Duration
	}{
		{"defaults", nil, "red", 15 * time.Second},
		{"flag over default", []string{"--color=green"}, "green", 15 * time.Second},
		{"file over defaults", []string{"--config=" + file}, "blue", 20 * time.Second},
		{"flag over file", []string{"--config=" + file, "--color=green"}, "green", 20 * time.Second},
		{"shared flag over file, in any order", []string{"--leader-elect-lease-duration=30s", "--config=" + file}, "blue", 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := testSpec()
			p := s.fresh()
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			for _, g := range p.groups {
				fs.AddFlagSet(g.Set)
			}
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			got, err := s.complete(p, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if c := got.own.(*fileOpts).color; c != tc.wantColor {
				t.Errorf("color = %q, want %q", c, tc.wantColor)
			}
			if l := got.shared.LeaderElection.LeaseDuration; l != tc.wantLease {
				t.Errorf("lease duration = %s, want %s", l, tc.wantLease)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"colour": "blue"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		code    int
		wantOut string // in stdout
		wantErr string // in stderr
	}{
		{"version", []string{"--version"}, 0, "test-daemon", ""},
		{"unknown flag", []string{"--nope"}, 2, "", "unknown flag: --nope"},
		{"invalid own value", []string{"--color=invalid"}, 2, "", "--color: invalid"},
		{"invalid shared value", []string{"--platform-api-qps=-1"}, 2, "", "--platform-api-qps"},
		{"unknown field in file", []string{"--config=" + bad}, 2, "", "--config " + bad},
		{"missing file", []string{"--config=" + filepath.Join(dir, "none")}, 2, "", "no such file"},
		{"help lists groups", []string{"--help"}, 0, "Test flags:", ""},
		{"construction failure", []string{"--master=http://127.0.0.1:1", "--secure-port=0"}, 1, "", "not run in these tests"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Execute(testSpec(), tc.args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code = %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q does not contain %q", stdout.String(), tc.wantOut)
			}
			if !strings.Contains(stderr.String(), tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.wantErr)
			}
		})
	}
}
