package openapi

import (
	"encoding/json"
	"testing"
)

func TestMergeV2(t *testing.T) {
	s, err := Build(rows(), Info{Title: "Platform", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	wardle := []byte(`{"swagger":"2.0","paths":{"/apis/wardle.example.io/v1/flunders":{"get":{"responses":{"200":{"description":"OK"}}}},
		"/api/v1/pods":{"get":{"description":"not the server's"}}},
		"definitions":{"io.example.wardle.v1.Flunder":{"type":"object"},"io.platform.api.core.v1.Pod":{"type":"string"}}}`)
	tests := []struct {
		name       string
		extras     [][]byte
		wantWardle bool
	}{
		{"merged", [][]byte{wardle}, true},
		{"a document that is not JSON is left out", [][]byte{[]byte("not json"), wardle}, true},
		{"a document the parser fails on: the server's own", [][]byte{wardle, []byte(`{"definitions":{"x":[1]}}`)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := s.mergeV2(tc.extras)
			var got struct {
				Paths       map[string]json.RawMessage
				Definitions map[string]json.RawMessage
			}
			if err := json.Unmarshal(doc.json, &got); err != nil {
				t.Fatal(err)
			}
			_, hasWardle := got.Definitions["io.example.wardle.v1.Flunder"]
			if hasWardle != tc.wantWardle {
				t.Errorf("merged definitions include wardle's: %v, want %v", hasWardle, tc.wantWardle)
			}
			var own, ownPod map[string]any
			json.Unmarshal(s.v2.json, &own)
			ownPod = own["definitions"].(map[string]any)["io.platform.api.core.v1.Pod"].(map[string]any)
			var pod map[string]any
			json.Unmarshal(got.Definitions["io.platform.api.core.v1.Pod"], &pod)
			if pod["type"] != ownPod["type"] {
				t.Errorf("the server's own Pod definition was replaced: %v", pod)
			}
			if _, err := doc.proto.get(); err != nil {
				t.Errorf("no protobuf form: %v", err)
			}
			if again := s.mergeV2(tc.extras); again != doc {
				t.Error("the same extras made a new document")
			}
		})
	}
}
