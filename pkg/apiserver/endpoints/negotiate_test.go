package endpoints

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestNegotiate(t *testing.T) {
	cases := []struct {
		accept           string
		tables, protobuf bool
		want             format
		media            string
		err              bool
	}{
		{"", true, true, formatJSON, contentTypeJSON, false},
		{"*/*", true, true, formatJSON, contentTypeJSON, false},
		{"application/json", true, true, formatJSON, contentTypeJSON, false},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true, true, formatJSON, contentTypeJSON, false},
		{"application/vnd.platform.protobuf", true, true, formatProtobuf, mediaProtobuf, false},
		{"application/vnd.kubernetes.protobuf, */*", true, true, formatProtobuf, mediaUpstreamProtobuf, false},
		{"application/vnd.kubernetes.protobuf,application/json", true, false, formatJSON, contentTypeJSON, false},
		{"application/json;q=0.5,application/vnd.platform.protobuf", true, true, formatProtobuf, mediaProtobuf, false},
		{"application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json", true, true, formatTable, contentTypeJSON, false},
		{"application/json;as=Table;v=v1;g=meta.platform.io,application/json", false, true, formatJSON, contentTypeJSON, false},
		{"application/json;as=Table;v=v9;g=meta.platform.io,application/json", true, true, formatJSON, contentTypeJSON, false},
		{"application/json;as=Table;v=v1;g=meta.platform.io", false, true, 0, "", true},
		{"text/html", true, true, 0, "", true},
		{"application/xml", true, true, 0, "", true},
		{"application/json;q=0", true, true, 0, "", true},
		{"application/vnd.platform.protobuf", true, false, 0, "", true},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/", nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		n, err := negotiate(r, c.tables, c.protobuf)
		if (err != nil) != c.err {
			t.Errorf("%q: err %v, want err %v", c.accept, err, c.err)
			continue
		}
		if err == nil && (n.format != c.want || n.mediaType != c.media) {
			t.Errorf("%q: got %v %s, want %v %s", c.accept, n.format, n.mediaType, c.want, c.media)
		}
	}
}

func TestAddWarningOnce(t *testing.T) {
	h := http.Header{}
	addWarning(h, `unknown field "x"`)
	addWarning(h, `unknown field "x"`)
	addWarning(h, `unknown field "y"`)
	if got := h.Values("Warning"); len(got) != 2 {
		t.Fatalf("warnings %q", got)
	}
}
