package cloudprovider

import (
	"errors"
	"testing"

	cloud "platform.io/client/cloudprovider"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/controller"
)

func TestLeading(t *testing.T) {
	for _, tc := range []struct {
		name     string
		isLeader func() bool
		want     error
	}{
		{"no election", nil, nil},
		{"leading", func() bool { return true }, nil},
		{"term over", func() bool { return false }, ErrNotLeading},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Context{Context: controller.Context{Deps: &daemon.Deps{IsLeader: tc.isLeader}}}
			if err := c.Leading(); !errors.Is(err, tc.want) {
				t.Errorf("Leading = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestHas(t *testing.T) {
	info := cloud.HandshakeInfo{Instances: true, Routes: true}
	for part, want := range map[Part]bool{PartInstances: true, PartRoutes: true, PartLoadBalancers: false, Part("other"): false} {
		if got := Has(info, part); got != want {
			t.Errorf("Has(%s) = %v, want %v", part, got, want)
		}
	}
}
