package nodeipam

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"
)

func TestAllocator(t *testing.T) {
	a, err := newAllocator(netip.MustParsePrefix("10.244.0.0/22"), 24)
	if err != nil {
		t.Fatal(err)
	}
	if !a.occupy(netip.MustParsePrefix("10.244.1.0/24")) {
		t.Fatal("occupy of a subnet of the range failed")
	}
	for _, p := range []string{"10.245.0.0/24", "10.244.0.0/25", "10.244.0.128/24"} {
		if a.occupy(netip.MustParsePrefix(p)) {
			t.Errorf("occupy(%s) succeeded", p)
		}
	}
	var got []string
	for range 3 {
		p, err := a.allocate()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.String())
	}
	if want := "[10.244.0.0/24 10.244.2.0/24 10.244.3.0/24]"; fmt.Sprint(got) != want {
		t.Errorf("allocated %v, want %s", got, want)
	}
	if _, err := a.allocate(); !errors.Is(err, ErrFull) {
		t.Errorf("allocate on a full range: %v, want ErrFull", err)
	}
	a.release(netip.MustParsePrefix("10.244.2.0/24"))
	if p, err := a.allocate(); err != nil || p.String() != "10.244.2.0/24" {
		t.Errorf("allocate after release = %v, %v", p, err)
	}
}

func TestNewAllocatorRejects(t *testing.T) {
	for _, tc := range []struct {
		cidr string
		bits int
	}{
		{"10.0.0.0/16", 8},
		{"fd00::/64", 80},
		{"10.0.0.0/8", 33},
		{"0.0.0.0/0", 30},
	} {
		if _, err := newAllocator(netip.MustParsePrefix(tc.cidr), tc.bits); err == nil {
			t.Errorf("newAllocator(%s, %d) succeeded", tc.cidr, tc.bits)
		}
	}
}
