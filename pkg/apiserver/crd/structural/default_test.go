package structural

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const defaultsSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"replicas":{"type":"integer","default":1},
	"mode":{"type":"string","default":"auto"},
	"opt":{"type":"string","nullable":true,"default":"set"},
	"plain":{"type":"string"},
	"nullok":{"type":"string","nullable":true},
	"strategy":{"type":"object","default":{},"properties":{
		"type":{"type":"string","default":"Rolling"},
		"max":{"type":"integer","default":25}}},
	"ports":{"type":"array","items":{"type":"object","default":{"port":80},"properties":{
		"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
	"env":{"type":"object","additionalProperties":{"type":"object","default":{"v":"x"},"properties":{
		"v":{"type":"string"},"from":{"type":"string","default":"literal"}}}},
	"either":{"type":"string","allOf":[{"default":"never"}]}}}}}`

func TestApplyDefaults(t *testing.T) {
	cases := []struct {
		name    string
		in, out string
	}{
		{"absent spec stays absent", `{}`, `{}`},
		{"empty spec", `{"spec":{}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":"set","strategy":{"type":"Rolling","max":25}}}`},
		{"set values kept", `{"spec":{"replicas":3,"mode":"manual","opt":"x","strategy":{"type":"Recreate"}}}`,
			`{"spec":{"replicas":3,"mode":"manual","opt":"x","strategy":{"type":"Recreate","max":25}}}`},
		{"null non-nullable gets the default", `{"spec":{"replicas":null,"strategy":null}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":"set","strategy":{"type":"Rolling","max":25}}}`},
		{"null nullable is kept", `{"spec":{"opt":null,"nullok":null}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":null,"nullok":null,"strategy":{"type":"Rolling","max":25}}}`},
		{"null without default is removed", `{"spec":{"plain":null}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":"set","strategy":{"type":"Rolling","max":25}}}`},
		{"items and null items", `{"spec":{"ports":[{"port":443},null]}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":"set","strategy":{"type":"Rolling","max":25},
				"ports":[{"port":443,"protocol":"TCP"},{"port":80,"protocol":"TCP"}]}}`},
		{"additionalProperties values", `{"spec":{"env":{"A":{"v":"a"},"B":null}}}`,
			`{"spec":{"replicas":1,"mode":"auto","opt":"set","strategy":{"type":"Rolling","max":25},
				"env":{"A":{"v":"a","from":"literal"},"B":{"v":"x","from":"literal"}}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, defaultsSchema)
			obj := object(t, c.in)
			s.ApplyDefaults(obj)
			if diff := cmp.Diff(tree(t, c.out), any(obj)); diff != "" {
				t.Errorf("defaulted (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplyDefaultsCopies checks two objects never share a default: a
// change to one's defaulted map must not show in the other, nor in the
// schema.
func TestApplyDefaultsCopies(t *testing.T) {
	s := mustParse(t, defaultsSchema)
	a, b := object(t, `{"spec":{}}`), object(t, `{"spec":{}}`)
	s.ApplyDefaults(a)
	s.ApplyDefaults(b)
	a["spec"].(map[string]any)["strategy"].(map[string]any)["type"] = "changed"
	if got := b["spec"].(map[string]any)["strategy"].(map[string]any)["type"]; got != "Rolling" {
		t.Fatalf("second object's default changed to %v", got)
	}
	if d := s.Properties["spec"].Properties["strategy"].Default.(map[string]any); len(d) != 0 {
		t.Fatalf("schema default changed to %v", d)
	}
}
