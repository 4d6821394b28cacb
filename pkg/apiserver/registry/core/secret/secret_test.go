package secret

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "secrets" || r.Singular != "secret" || r.Kind != "Secret" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || r.Strategy == nil || len(r.ShortNames) != 0 {
		t.Fatalf("bad flags: %+v", r)
	}
	if _, ok := r.New().(*corev1.Secret); !ok {
		t.Fatalf("New returned %T", r.New())
	}
	if got := r.Fields(&corev1.Secret{Type: corev1.SecretTypeTLS})["type"]; got != "platform.io/tls" {
		t.Fatalf("type field = %q", got)
	}
}

func TestDefaults(t *testing.T) {
	s := &corev1.Secret{}
	Resource().Strategy.Default(s)
	if s.Type != corev1.SecretTypeOpaque {
		t.Errorf("type = %q, want Opaque", s.Type)
	}
	s = &corev1.Secret{Type: corev1.SecretTypeTLS}
	setDefaults(s)
	if s.Type != corev1.SecretTypeTLS {
		t.Errorf("explicit type replaced by %q", s.Type)
	}
}

func TestStringData(t *testing.T) {
	st := Resource().Strategy
	s := &corev1.Secret{StringData: map[string]string{"a": "x"}}
	st.PrepareForCreate(s)
	if string(s.Data["a"]) != "x" || s.StringData != nil {
		t.Errorf("create: data=%v stringData=%v", s.Data, s.StringData)
	}
	s = &corev1.Secret{Data: map[string][]byte{"a": []byte("old"), "b": []byte("keep")}, StringData: map[string]string{"a": "new"}}
	st.PrepareForUpdate(s, &corev1.Secret{})
	if string(s.Data["a"]) != "new" || string(s.Data["b"]) != "keep" || s.StringData != nil {
		t.Errorf("update: data=%v stringData=%v", s.Data, s.StringData)
	}
	s = &corev1.Secret{}
	st.PrepareForCreate(s)
	if s.Data != nil {
		t.Errorf("empty secret gained data %v", s.Data)
	}
}

func TestValidate(t *testing.T) {
	data := func(kv ...string) map[string][]byte {
		m := map[string][]byte{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = []byte(kv[i+1])
		}
		return m
	}
	saName := map[string]string{corev1.ServiceAccountNameKey: "default"}
	cases := []struct {
		name  string
		s     corev1.Secret
		typ   field.Type
		field string
	}{
		{"opaque", corev1.Secret{Type: "Opaque", Data: data("a", "b")}, "", ""},
		{"custom type", corev1.Secret{Type: "example.com/thing"}, "", ""},
		{"bad key", corev1.Secret{Data: data("a/b", "x")}, field.TypeInvalid, "data[a/b]"},
		{"too big", corev1.Secret{Data: data("a", strings.Repeat("x", corev1.MaxSecretSize+1))}, field.TypeTooLong, "data"},
		{"tls ok", corev1.Secret{Type: corev1.SecretTypeTLS, Data: data("tls.crt", "c", "tls.key", "k")}, "", ""},
		{"tls no key", corev1.Secret{Type: corev1.SecretTypeTLS, Data: data("tls.crt", "c")}, field.TypeRequired, "data[tls.key]"},
		{"upstream tls no cert", corev1.Secret{Type: "kubernetes.io/tls", Data: data("tls.key", "k")}, field.TypeRequired, "data[tls.crt]"},
		{"dockerconfigjson ok", corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, Data: data(".dockerconfigjson", `{"auths":{}}`)}, "", ""},
		{"dockerconfigjson missing", corev1.Secret{Type: "kubernetes.io/dockerconfigjson"}, field.TypeRequired, "data[.dockerconfigjson]"},
		{"dockerconfigjson not json", corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, Data: data(".dockerconfigjson", "{")}, field.TypeInvalid, "data[.dockerconfigjson]"},
		{"dockercfg missing", corev1.Secret{Type: corev1.SecretTypeDockercfg}, field.TypeRequired, "data[.dockercfg]"},
		{"basic-auth password only", corev1.Secret{Type: corev1.SecretTypeBasicAuth, Data: data("password", "")}, "", ""},
		{"basic-auth empty", corev1.Secret{Type: "kubernetes.io/basic-auth"}, field.TypeRequired, "data[username]"},
		{"ssh-auth ok", corev1.Secret{Type: corev1.SecretTypeSSHAuth, Data: data("ssh-privatekey", "k")}, "", ""},
		{"ssh-auth empty key", corev1.Secret{Type: corev1.SecretTypeSSHAuth, Data: data("ssh-privatekey", "")}, field.TypeRequired, "data[ssh-privatekey]"},
		{"sa token ok", corev1.Secret{ObjectMeta: meta.ObjectMeta{Annotations: saName}, Type: corev1.SecretTypeServiceAccountToken}, "", ""},
		{"upstream sa token ok", corev1.Secret{ObjectMeta: meta.ObjectMeta{Annotations: map[string]string{"kubernetes.io/service-account.name": "x"}}, Type: "kubernetes.io/service-account-token"}, "", ""},
		{"sa token no name", corev1.Secret{Type: corev1.SecretTypeServiceAccountToken}, field.TypeRequired, "metadata.annotations[platform.io/service-account.name]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := corevalidation.Expect(validate(&c.s), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	yes := true
	cases := []struct {
		name     string
		old, new corev1.Secret
		typ      field.Type
		field    string
	}{
		{"data change", corev1.Secret{Type: "Opaque"}, corev1.Secret{Type: "Opaque", Data: map[string][]byte{"a": nil}}, "", ""},
		{"type change", corev1.Secret{Type: "Opaque"}, corev1.Secret{Type: "example.com/x"}, field.TypeInvalid, "type"},
		{"frozen same", corev1.Secret{Type: "Opaque", Immutable: &yes}, corev1.Secret{Type: "Opaque", Immutable: &yes, Data: map[string][]byte{}}, "", ""},
		{"frozen data change", corev1.Secret{Type: "Opaque", Immutable: &yes}, corev1.Secret{Type: "Opaque", Immutable: &yes, Data: map[string][]byte{"a": {1}}}, field.TypeForbidden, "data"},
		{"frozen flag cleared", corev1.Secret{Type: "Opaque", Immutable: &yes}, corev1.Secret{Type: "Opaque"}, field.TypeForbidden, "immutable"},
		{"type rules on update", corev1.Secret{Type: corev1.SecretTypeTLS}, corev1.Secret{Type: corev1.SecretTypeTLS}, field.TypeRequired, "data[tls.crt]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := corevalidation.Expect(validateUpdate(&c.new, &c.old), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}
