package options

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestFirstHostAddress(t *testing.T) {
	nets := func(cidrs ...string) []net.Addr {
		var out []net.Addr
		for _, c := range cidrs {
			ip, n, err := net.ParseCIDR(c)
			if err != nil {
				t.Fatal(err)
			}
			n.IP = ip
			out = append(out, n)
		}
		return out
	}
	cases := []struct {
		name  string
		addrs []net.Addr
		want  string
	}{
		{"loopback only", nets("127.0.0.1/8", "::1/128"), "<nil>"},
		{"first IPv4 after loopback", nets("127.0.0.1/8", "192.168.1.5/24", "10.0.0.7/8"), "192.168.1.5"},
		{"IPv4 before IPv6", nets("::1/128", "2001:db8::5/64", "10.0.0.7/8"), "10.0.0.7"},
		{"IPv6 when no IPv4", nets("127.0.0.1/8", "fe80::1/64", "2001:db8::5/64"), "2001:db8::5"},
		{"link-local skipped", nets("169.254.3.3/16", "10.1.2.3/8"), "10.1.2.3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstHostAddress(tc.addrs).String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestAdvertiseAddress(t *testing.T) {
	cases := []struct {
		name      string
		advertise string
		bind      string
		want      string
	}{
		{"given", "10.9.9.9", "0.0.0.0", "10.9.9.9"},
		{"specific bind address", "", "127.0.0.3", "127.0.0.3"},
		{"unspecified advertise means the default", "0.0.0.0", "127.0.0.2", "127.0.0.2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := NewGeneric()
			o.AdvertiseAddress = net.ParseIP(tc.advertise)
			if err := o.Complete(net.ParseIP(tc.bind)); err != nil {
				t.Fatal(err)
			}
			if got := o.AdvertiseAddress.String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("unspecified bind address", func(t *testing.T) {
		o := NewGeneric()
		err := o.Complete(net.ParseIP("0.0.0.0"))
		if err != nil {
			if !strings.Contains(err.Error(), "--advertise-address") {
				t.Errorf("error %v does not name the flag", err)
			}
			return
		}
		if ip := o.AdvertiseAddress; ip.IsLoopback() || ip.IsUnspecified() {
			t.Errorf("advertise address %s, want a host address", ip)
		}
	})
}

func TestShutdownAndReconcilerFlags(t *testing.T) {
	cases := []struct {
		args    []string
		check   func(o *Options) bool
		wantErr string
	}{
		{nil, func(o *Options) bool {
			g, r := o.Generic, o.Reconciler
			return g.ShutdownDelayDuration == 0 && g.ShutdownWatchTerminationGracePeriod == 0 && !g.ShutdownSendRetryAfter &&
				r.Type == ReconcilerLease && r.LeaseTTL == 15*time.Second
		}, ""},
		{[]string{"--shutdown-delay-duration=5s", "--shutdown-watch-termination-grace-period=10s", "--shutdown-send-retry-after", "--endpoint-reconciler-type=none", "--endpoint-reconciler-lease-ttl=3s"},
			func(o *Options) bool {
				g, r := o.Generic, o.Reconciler
				return g.ShutdownDelayDuration == 5*time.Second && g.ShutdownWatchTerminationGracePeriod == 10*time.Second && g.ShutdownSendRetryAfter &&
					r.Type == ReconcilerNone && r.LeaseTTL == 3*time.Second
			}, ""},
		{[]string{"--shutdown-delay-duration=-1s"}, nil, "--shutdown-delay-duration"},
		{[]string{"--shutdown-watch-termination-grace-period=-1s"}, nil, "--shutdown-watch-termination-grace-period"},
		{[]string{"--endpoint-reconciler-type=master-count"}, nil, "--endpoint-reconciler-type"},
		{[]string{"--endpoint-reconciler-lease-ttl=1500ms"}, nil, "--endpoint-reconciler-lease-ttl"},
		{[]string{"--endpoint-reconciler-lease-ttl=0s"}, nil, "--endpoint-reconciler-lease-ttl"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o := New()
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			for _, g := range o.FlagSets() {
				fs.AddFlagSet(g.Set)
			}
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			err := o.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one naming %s", err, tc.wantErr)
			case tc.check != nil && !tc.check(o):
				t.Errorf("options not parsed as expected: %+v %+v", o.Generic, o.Reconciler)
			}
		})
	}
}
