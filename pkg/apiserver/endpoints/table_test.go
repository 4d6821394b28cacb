package endpoints

import "testing"

func TestTablesAllowed(t *testing.T) {
	cases := []struct {
		verb, sub string
		want      bool
	}{
		{"get", "", true},
		{"list", "", true},
		{"watch", "", true},
		{"get", "status", true},
		{"get", "scale", false},
		{"create", "", false},
		{"update", "", false},
		{"patch", "status", false},
		{"delete", "", false},
		{"deletecollection", "", false},
		{"create", "binding", false},
	}
	for _, c := range cases {
		if got := tablesAllowed(&RequestInfo{Verb: c.verb, Subresource: c.sub}); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.verb, c.sub, got, c.want)
		}
	}
}
