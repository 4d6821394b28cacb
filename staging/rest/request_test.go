package rest

import (
	"strings"
	"testing"

	"platform.io/client/api/meta"
)

func TestRequestURL(t *testing.T) {
	c, err := NewClient(&Config{Host: "https://api.example:6443/prefix", APIPath: "/cluster-a/"})
	if err != nil {
		t.Fatal(err)
	}
	const root = "https://api.example:6443/prefix/cluster-a"
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"core cluster-scoped list", c.Get().Version("v1").Resource("nodes"), "/api/v1/nodes"},
		{"core namespaced get", c.Get().Version("v1").Namespace("ns").Resource("pods").Name("p"), "/api/v1/namespaces/ns/pods/p"},
		{"core subresource", c.Put().Version("v1").Namespace("ns").Resource("pods").Name("p").SubResource("status"), "/api/v1/namespaces/ns/pods/p/status"},
		{"namespace object", c.Get().Version("v1").Resource("namespaces").Name("kube"), "/api/v1/namespaces/kube"},
		{"all namespaces", c.Get().Version("v1").Namespace("").Resource("pods"), "/api/v1/pods"},
		{"group", c.Get().Group("apps").Version("v1").Namespace("ns").Resource("deployments").Name("x").SubResource("scale"), "/apis/apps/v1/namespaces/ns/deployments/x/scale"},
		{"group version", c.Get().GroupVersion(meta.GroupVersion{Group: "batch", Version: "v1"}).Resource("jobs"), "/apis/batch/v1/jobs"},
		{"group cluster-scoped", c.Delete().Group("coordination.platform.io").Version("v1").Resource("leases").Name("l"), "/apis/coordination.platform.io/v1/leases/l"},
		{"version root", c.Get().Version("v1"), "/api/v1"},
		{"params", c.Get().Version("v1").Resource("pods").Param("labelSelector", "app=a,tier in (x)").Param("limit", "5"), "/api/v1/pods?labelSelector=app%3Da%2Ctier+in+%28x%29&limit=5"},
		{"repeated param", c.Get().Version("v1").Resource("pods").Param("x", "1").Param("x", "2"), "/api/v1/pods?x=1&x=2"},
		{"abs path", c.Get().AbsPath("/version"), "/version"},
		{"abs path ignores resource", c.Get().Version("v1").Resource("pods").AbsPath("/apis"), "/apis"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := tt.req.URL()
			if err != nil {
				t.Fatalf("URL: %v", err)
			}
			if got := u.String(); got != root+tt.want {
				t.Errorf("URL = %s, want %s", got, root+tt.want)
			}
		})
	}
}

func TestRequestURLErrors(t *testing.T) {
	c, err := NewClient(&Config{Host: "127.0.0.1:8080"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"no version", c.Get().Resource("pods"), "no API version"},
		{"empty name", c.Get().Version("v1").Resource("pods").Name(""), "name may not be empty"},
		{"slash in name", c.Get().Version("v1").Resource("pods").Name("a/b"), "may not contain"},
		{"dot dot namespace", c.Get().Version("v1").Namespace("..").Resource("pods"), `may not be ".."`},
		{"percent in subresource", c.Get().Version("v1").Resource("pods").Name("a").SubResource("%2f"), "may not contain"},
		{"name without resource", c.Get().Version("v1").Name("a"), "needs a resource"},
		{"relative abs path", c.Get().AbsPath("version"), "does not start with /"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.req.URL()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("URL error = %v, want one containing %q", err, tt.want)
			}
			if res := tt.req.Do(t.Context()); res.Error() == nil {
				t.Fatal("Do sent a request with an invalid path")
			}
		})
	}
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string // "" for a valid config
	}{
		{"plain host", Config{Host: "10.0.0.1:8080"}, ""},
		{"no host", Config{}, "no host"},
		{"ca with insecure", Config{Host: "https://h", TLS: TLSConfig{CAData: []byte("x"), Insecure: true}}, "Insecure"},
		{"cert without key", Config{Host: "https://h", TLS: TLSConfig{CertFile: "c"}}, "needs its key"},
		{"bad content type", Config{Host: "h", ContentType: "text/plain"}, "content type"},
		{"bad scheme", Config{Host: "ftp://h"}, "scheme"},
		{"query in host", Config{Host: "http://h/?a=b"}, "query"},
		{"missing token file", Config{Host: "h", BearerTokenFile: "/nonexistent/token"}, "bearer token file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewClient(&tt.cfg)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("NewClient: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("NewClient error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestBaseURLScheme(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Host: "h:1"}, "http://h:1"},
		{Config{Host: "h:1", TLS: TLSConfig{Insecure: true}}, "https://h:1"},
		{Config{Host: "h:1", TLS: TLSConfig{CAFile: "ca"}}, "https://h:1"},
		{Config{Host: "https://h/"}, "https://h"},
		{Config{Host: "http://h/a/", APIPath: "b"}, "http://h/a/b"},
	}
	for _, tt := range tests {
		u, err := tt.cfg.baseURL()
		if err != nil {
			t.Fatalf("%+v: %v", tt.cfg, err)
		}
		if u.String() != tt.want {
			t.Errorf("baseURL(%q, %q) = %s, want %s", tt.cfg.Host, tt.cfg.APIPath, u, tt.want)
		}
	}
}

func TestDefaultUserAgent(t *testing.T) {
	ua := DefaultUserAgent()
	if !strings.Contains(ua, "/") || !strings.Contains(ua, " (") || !strings.HasSuffix(ua, ")") {
		t.Fatalf("DefaultUserAgent = %q, want <binary>/<version> (<os>/<arch>)", ua)
	}
}

func TestConfigStringRedacts(t *testing.T) {
	s := Config{Host: "h", BearerToken: "sekrit", TLS: TLSConfig{KeyData: []byte("private")}}.String()
	if strings.Contains(s, "sekrit") || strings.Contains(s, "private") {
		t.Fatalf("String leaks a secret: %s", s)
	}
}
