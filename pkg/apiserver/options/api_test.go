package options

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestDefaultTolerationSecondsFlags(t *testing.T) {
	cases := []struct {
		args         []string
		notReady     int64
		unreachable  int64
		wantErrNamed string
	}{
		{nil, 300, 300, ""},
		{[]string{"--default-not-ready-toleration-seconds=0", "--default-unreachable-toleration-seconds=60"}, 0, 60, ""},
		{[]string{"--default-not-ready-toleration-seconds=-1"}, -1, 300, "--default-not-ready-toleration-seconds"},
		{[]string{"--default-unreachable-toleration-seconds=-5"}, 300, -5, "--default-unreachable-toleration-seconds"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o := NewAPI()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if o.DefaultNotReadyTolerationSeconds != tc.notReady || o.DefaultUnreachableTolerationSeconds != tc.unreachable {
				t.Errorf("parsed %d/%d, want %d/%d", o.DefaultNotReadyTolerationSeconds, o.DefaultUnreachableTolerationSeconds, tc.notReady, tc.unreachable)
			}
			errs := o.Validate()
			switch {
			case tc.wantErrNamed == "" && len(errs) > 0:
				t.Errorf("unexpected errors %v", errs)
			case tc.wantErrNamed != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.wantErrNamed)):
				t.Errorf("errors %v, want one naming %s", errs, tc.wantErrNamed)
			}
		})
	}
}
