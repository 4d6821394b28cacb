package options

import (
	"strings"
	"testing"
)

func TestAdmissionValidate(t *testing.T) {
	cases := []struct {
		name            string
		enable, disable []string
		want            string // "" means valid
	}{
		{"defaults", nil, nil, ""},
		{"known names", nil, []string{"NamespaceLifecycle"}, ""},
		{"unknown enable", []string{"NoSuchPlugin"}, nil, `--enable-admission-plugins: unknown admission plugin "NoSuchPlugin"`},
		{"unknown disable", nil, []string{"namespacelifecycle"}, `--disable-admission-plugins: unknown admission plugin "namespacelifecycle"`},
		{"both", []string{"DefaultTolerationSeconds"}, []string{"DefaultTolerationSeconds"}, "both enabled and disabled"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := (&Admission{Enable: tc.enable, Disable: tc.disable}).Validate()
			switch {
			case tc.want == "" && len(errs) > 0:
				t.Errorf("errors %v", errs)
			case tc.want != "" && (len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.want)):
				t.Errorf("errors %v, want %q", errs, tc.want)
			}
		})
	}
}
