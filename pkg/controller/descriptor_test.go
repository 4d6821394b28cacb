package controller

import "testing"

func TestEnabled(t *testing.T) {
	tests := []struct {
		list     []string
		name     string
		disabled bool
		want     bool
	}{
		{[]string{"*"}, "deployment", false, true},
		{[]string{"*"}, "bootstrapsigner", true, false},
		{[]string{"*", "bootstrapsigner"}, "bootstrapsigner", true, true},
		{[]string{"*", "-deployment"}, "deployment", false, false},
		{[]string{"-deployment", "*"}, "deployment", false, false},
		{[]string{"job"}, "deployment", false, false},
		{[]string{"job", "deployment"}, "deployment", false, true},
		{nil, "deployment", false, false},
	}
	for _, tc := range tests {
		if got := Enabled(tc.list, tc.name, tc.disabled); got != tc.want {
			t.Errorf("Enabled(%v, %q, %v) = %v, want %v", tc.list, tc.name, tc.disabled, got, tc.want)
		}
	}
}

func TestValidateList(t *testing.T) {
	known := []string{"deployment", "job"}
	for _, ok := range [][]string{{"*"}, {"*", "-job"}, {"deployment"}} {
		if err := ValidateList(ok, known); err != nil {
			t.Errorf("ValidateList(%v) = %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"deploymnet"}, {"-nope"}, {""}} {
		if err := ValidateList(bad, known); err == nil {
			t.Errorf("ValidateList(%v) accepted", bad)
		}
	}
}
