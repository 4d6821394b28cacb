package crd

import (
	"strings"
	"testing"
)

func TestSortVersions(t *testing.T) {
	// Upstream's documented example order.
	want := "v10,v2,v1,v11beta2,v10beta3,v3beta1,v12alpha1,v11alpha2,foo1,foo10"
	in := strings.Split("foo10,v1,v11alpha2,v10beta3,foo1,v2,v12alpha1,v3beta1,v10,v11beta2", ",")
	sortVersions(in)
	if got := strings.Join(in, ","); got != want {
		t.Errorf("sorted %s, want %s", got, want)
	}
}
