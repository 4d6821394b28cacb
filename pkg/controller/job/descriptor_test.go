package job

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestOptions(t *testing.T) {
	cases := []struct {
		args    []string
		want    int
		wantErr bool
	}{
		{want: 5},
		{args: []string{"--concurrent-job-syncs=12"}, want: 12},
		{args: []string{"--concurrent-job-syncs=0"}, want: 0, wantErr: true},
	}
	for _, tc := range cases {
		d := Descriptor()
		if d.Name != "job" {
			t.Fatalf("name %q", d.Name)
		}
		o := d.NewOptions()
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		o.AddFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := o.(*Options).Workers; got != tc.want {
			t.Errorf("%v: workers %d, want %d", tc.args, got, tc.want)
		}
		if errs := o.Validate(); (len(errs) > 0) != tc.wantErr {
			t.Errorf("%v: validate %v", tc.args, errs)
		}
	}
}
