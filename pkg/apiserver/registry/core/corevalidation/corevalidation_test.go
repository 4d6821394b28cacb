package corevalidation

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestIPAndCIDR(t *testing.T) {
	p := field.NewPath("f")
	for _, ip := range []string{"10.0.0.1", "2001:db8::1", "::ffff:10.0.0.1"} {
		if errs := IP(p, ip); len(errs) > 0 {
			t.Errorf("IP(%q) = %v", ip, errs)
		}
	}
	for _, ip := range []string{"", "10.0.0", "10.0.0.256", "010.0.0.1", "fe80::1%eth0", "host"} {
		if msg := Expect(IP(p, ip), field.TypeInvalid, "f"); msg != "" {
			t.Errorf("IP(%q): %s", ip, msg)
		}
	}
	for _, c := range []string{"10.0.0.0/8", "fd00::/64"} {
		if errs := CIDR(p, c); len(errs) > 0 {
			t.Errorf("CIDR(%q) = %v", c, errs)
		}
	}
	for _, c := range []string{"10.0.0.0", "10.0.0.0/33", ""} {
		if msg := Expect(CIDR(p, c), field.TypeInvalid, "f"); msg != "" {
			t.Errorf("CIDR(%q): %s", c, msg)
		}
	}
	if errs := TrimmedCIDR(p, " 10.0.0.0/8 "); len(errs) > 0 {
		t.Errorf("TrimmedCIDR = %v", errs)
	}
}

func TestNonSpecialIP(t *testing.T) {
	p := field.NewPath("ip")
	if errs := NonSpecialIP(p, "10.1.2.3"); len(errs) > 0 {
		t.Errorf("10.1.2.3: %v", errs)
	}
	for _, ip := range []string{"0.0.0.0", "::", "127.0.0.1", "::1", "169.254.1.1", "fe80::1", "224.0.0.1", "ff02::1", "x"} {
		if msg := Expect(NonSpecialIP(p, ip), field.TypeInvalid, "ip"); msg != "" {
			t.Errorf("%s: %s", ip, msg)
		}
	}
}

func TestFamilies(t *testing.T) {
	if FamilyOf("10.0.0.1") != corev1.IPv4Protocol || FamilyOf("fd00::1") != corev1.IPv6Protocol || FamilyOf("x") != corev1.IPFamilyUnknown {
		t.Error("FamilyOf")
	}
	if !IsIPv6("fd00::1") || IsIPv6("10.0.0.1") || IsIPv6("::ffff:10.0.0.1") {
		t.Error("IsIPv6")
	}
	if OtherFamily(corev1.IPv4Protocol) != corev1.IPv6Protocol || OtherFamily(corev1.IPv6Protocol) != corev1.IPv4Protocol {
		t.Error("OtherFamily")
	}
	if !IsDualStackIPs([]string{"10.0.0.1", "fd00::1"}) || IsDualStackIPs([]string{"10.0.0.1", "10.0.0.2"}) || IsDualStackIPs([]string{"10.0.0.1"}) {
		t.Error("IsDualStackIPs")
	}
	if !IsDualStackCIDRs([]string{"fd00::/64", "10.0.0.0/24"}) || IsDualStackCIDRs([]string{"10.0.0.0/24", "10.1.0.0/24"}) {
		t.Error("IsDualStackCIDRs")
	}
}

func TestPorts(t *testing.T) {
	p := field.NewPath("port")
	for _, n := range []int32{1, 80, 65535} {
		if errs := PortNum(p, n); len(errs) > 0 {
			t.Errorf("PortNum(%d) = %v", n, errs)
		}
	}
	for _, n := range []int32{0, -1, 65536} {
		if msg := Expect(PortNum(p, n), field.TypeInvalid, "port"); msg != "" {
			t.Errorf("PortNum(%d): %s", n, msg)
		}
	}
	for _, name := range []string{"http", "h2c", "a-b-c", "x1"} {
		if errs := IsPortName(name); len(errs) > 0 {
			t.Errorf("IsPortName(%q) = %v", name, errs)
		}
	}
	for _, name := range []string{"", "123", "-http", "http-", "ht--tp", "HTTP", "a_b", "abcdefghijklmnop"} {
		if len(IsPortName(name)) == 0 {
			t.Errorf("IsPortName(%q) accepted", name)
		}
	}
	if errs := PortNumOrName(p, intstr.FromString("http")); len(errs) > 0 {
		t.Errorf("PortNumOrName(http) = %v", errs)
	}
	if msg := Expect(PortNumOrName(p, intstr.FromInt(0)), field.TypeInvalid, "port"); msg != "" {
		t.Error(msg)
	}
	if msg := Expect(Protocol(p, ""), field.TypeRequired, "port"); msg != "" {
		t.Error(msg)
	}
	if msg := Expect(Protocol(p, "ICMP"), field.TypeNotSupported, "port"); msg != "" {
		t.Error(msg)
	}
	if errs := Protocol(p, corev1.ProtocolSCTP); len(errs) > 0 {
		t.Errorf("SCTP: %v", errs)
	}
}

func TestConfigMapKeys(t *testing.T) {
	for _, k := range []string{"a", "a.b", ".hidden", "A_B-c.1", strings.Repeat("k", 253)} {
		if errs := IsConfigMapKey(k); len(errs) > 0 {
			t.Errorf("IsConfigMapKey(%q) = %v", k, errs)
		}
	}
	for _, k := range []string{"", ".", "..", "..a", "a/b", "a b", strings.Repeat("k", 254)} {
		if len(IsConfigMapKey(k)) == 0 {
			t.Errorf("IsConfigMapKey(%q) accepted", k)
		}
	}
	if msg := Expect(Keys(field.NewPath("data"), map[string]int{"a/b": 1}), field.TypeInvalid, "data[a/b]"); msg != "" {
		t.Error(msg)
	}
}

func TestImmutability(t *testing.T) {
	yes, no := true, false
	p := field.NewPath("immutable")
	if errs := ImmutableFlag(p, &yes, nil); len(errs) > 0 {
		t.Errorf("setting the flag refused: %v", errs)
	}
	if msg := Expect(ImmutableFlag(p, &no, &yes), field.TypeForbidden, "immutable"); msg != "" {
		t.Error(msg)
	}
	if !StringMapsEqual(nil, map[string]string{}) || StringMapsEqual(nil, map[string]string{"a": ""}) {
		t.Error("StringMapsEqual")
	}
	if !BytesMapsEqual(map[string][]byte{"a": nil}, map[string][]byte{"a": {}}) || BytesMapsEqual(map[string][]byte{"a": {1}}, nil) {
		t.Error("BytesMapsEqual")
	}
	if msg := Expect(Immutable(field.NewPath("type"), "a", "b"), field.TypeInvalid, "type"); msg != "" {
		t.Error(msg)
	}
	if errs := Immutable(field.NewPath("type"), "a", "a"); len(errs) > 0 {
		t.Errorf("unchanged value refused: %v", errs)
	}
}

func TestSmallChecks(t *testing.T) {
	p := field.NewPath("f")
	if msg := Expect(MaxLength(p, "abc", 2), field.TypeTooLong, "f"); msg != "" {
		t.Error(msg)
	}
	if msg := Expect(NonNegative(p, -1), field.TypeInvalid, "f"); msg != "" {
		t.Error(msg)
	}
	if msg := Expect(QualifiedName(p, "a b"), field.TypeInvalid, "f"); msg != "" {
		t.Error(msg)
	}
	if msg := Expect(LabelValue(p, "a b"), field.TypeInvalid, "f"); msg != "" {
		t.Error(msg)
	}
	if Expect(nil, field.TypeInvalid, "f") == "" || Expect(field.ErrorList{field.Required(p, "")}, "", "") == "" {
		t.Error("Expect accepted a mismatch")
	}
}
