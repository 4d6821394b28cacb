package structural

import "testing"

func TestFormats(t *testing.T) {
	cases := []struct {
		format     string
		good, bads []string
	}{
		{"bsonobjectid", []string{"507f1f77bcf86cd799439011"}, []string{"507f1f77bcf86cd79943901", "zzzf1f77bcf86cd799439011"}},
		{"uri", []string{"https://example.com/a?b=c", "/relative/path"}, []string{"not a uri", ""}},
		{"email", []string{"a@example.com", "Name <a@example.com>"}, []string{"no-at-sign", "a@"}},
		{"hostname", []string{"example.com", "a", "my-host.example.io"}, []string{"-bad.com", "a..b", "under_score.com"}},
		{"ipv4", []string{"10.0.0.1"}, []string{"10.0.0", "::1", "256.0.0.1"}},
		{"ipv6", []string{"::1", "fe80::1"}, []string{"10.0.0.1", "fe80::g"}},
		{"cidr", []string{"10.0.0.0/8", "fd00::/64"}, []string{"10.0.0.0", "10.0.0.0/33"}},
		{"mac", []string{"00:1a:2b:3c:4d:5e"}, []string{"00:1a:2b:3c:4d", "zz:1a:2b:3c:4d:5e"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000"}, []string{"123e4567-e89b-12d3-a456"}},
		{"uuid3", []string{"a3bb189e-8bf9-3888-9912-ace4e6543002"}, []string{"a3bb189e-8bf9-4888-9912-ace4e6543002"}},
		{"uuid4", []string{"9b2b5d0a-6b1e-4a8c-9d3f-2c1e0f4b7a6d"}, []string{"9b2b5d0a-6b1e-4a8c-7d3f-2c1e0f4b7a6d"}},
		{"uuid5", []string{"2ed6657d-e927-568b-95e1-2665a8aea6a2"}, []string{"2ed6657d-e927-468b-95e1-2665a8aea6a2"}},
		{"isbn10", []string{"0321751043", "0-321-75104-3", "080442957X"}, []string{"0321751044", "032175104"}},
		{"isbn13", []string{"978-0321751041", "9780321751041"}, []string{"9780321751042"}},
		{"isbn", []string{"0321751043", "9780321751041"}, []string{"123"}},
		{"creditcard", []string{"4111 1111 1111 1111", "5500-0000-0000-0004"}, []string{"4111 1111 1111 1112", "1234", "0000 0000 0000 0000"}},
		{"ssn", []string{"123-45-6789", "123456789"}, []string{"123-456-789"}},
		{"hexcolor", []string{"#fff", "A0B1C2"}, []string{"#ffff", "#ggg"}},
		{"rgbcolor", []string{"rgb(255,255,255)", "rgb( 0 , 10 , 200 )"}, []string{"rgb(256,0,0)", "rgb(1,2)"}},
		{"byte", []string{"aGVsbG8=", ""}, []string{"not base64!"}},
		{"password", []string{"anything at all"}, nil},
		{"date", []string{"2026-11-27"}, []string{"2026-13-01", "2026-11-27T00:00:00Z"}},
		{"date-time", []string{"2026-11-27T10:00:00Z", "2026-11-27t10:00:00.123+02:00", "2026-11-27T23:59:59-05:00", "2026-11-27T10:00:00ZtX"},
			[]string{"2026-11-27T10:00:00", "2026-11-27 10:00:00Z", "2026-11-27T25:00:00Z", "2026-11-27T10:60:00Z", "2026-11-27T10:00:00.Z",
				"2026-11-27T10:00:00+0200", "2026-11-27T1:00:00Z", "2026-02-30T10:00:00Z"}},
		{"datetime", []string{"2026-11-27T10:00:00Z"}, []string{"yesterday"}},
		{"duration", []string{"1h30m", "300ms", "3 days", "2 weeks", "1 hr"}, []string{"soon", "3 parsecs", ""}},
		{"quantity", []string{"100m", "1Gi", "2.5"}, []string{"1GB", "abc"}},
		{"k8s-short-name", []string{"web-1"}, []string{"Web", "a.b"}},
		{"k8s-long-name", []string{"web.example.com"}, []string{"Web.example.com", "-a"}},
		{"not-a-format", []string{"anything"}, nil},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			for _, v := range c.good {
				if !checkFormat(c.format, v) {
					t.Errorf("%q refused", v)
				}
			}
			for _, v := range c.bads {
				if checkFormat(c.format, v) {
					t.Errorf("%q accepted", v)
				}
			}
		})
	}
}

func TestKnownFormat(t *testing.T) {
	cases := []struct {
		typ, format string
		want        bool
	}{
		{"string", "date-time", true}, {"", "uuid4", true}, {"string", "int32", false},
		{"integer", "int32", true}, {"integer", "int64", true}, {"integer", "double", false},
		{"number", "float", true}, {"number", "double", true}, {"number", "int64", false},
		{"boolean", "byte", false}, {"object", "date", false},
	}
	for _, c := range cases {
		if got := knownFormat(c.typ, c.format); got != c.want {
			t.Errorf("knownFormat(%q, %q) = %v, want %v", c.typ, c.format, got, c.want)
		}
	}
}
