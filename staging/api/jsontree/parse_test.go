package jsontree

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stdDecode is what the parser must match: encoding/json's decoding into
// interfaces, with numbers read by Numbers.
func stdDecode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return Numbers(v), nil
}

var parseSeeds = []string{
	`{"a":1,"b":[2.5,-0,-0.0,9223372036854775807,9223372036854775808,1e400,-1E-2],"c":null,"d":"x","a":true}`,
	` [ ] `, `{}`, `[{"":[[],{}]}]`, `"\u00e9\ud83d\ude00\ud800\udc00x\ud800\u0041\udc00"`, `"\ud800"`, `"a\\\/\"\b\f\n\r\t"`,
	"\"bad \xff utf8 \xc3 é\"", `false`, `null`, `-12`, "\t{\"k\" :\n[1 , 2]}\r\n",
}

// badSeeds are documents json.Valid refuses, each near one the parser
// accepts (and some encoding/json reads the first value of).
var badSeeds = []string{
	`01`, `-`, `1.`, `1.e3`, `1e`, `1e+`, `+1`, `.5`, `tru`, `nul`, `falsey`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`,
	`{"a":1}}`, `[1]]`, `{"a":1} {}`, `1 2`, "\"tab\there\"", `"\x"`, `"\u12g4"`, `"\ud800\u12g4"`, `"open`, `[`, `{`,
	`{"a":`, `"\`, "\x00", ``, `  `, "[1\x0b]", `[1,2`, `{"a":[1,{"b":}]}`,
}

func TestParserRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, s := range badSeeds {
		_, werr := stdDecode([]byte(s))
		_, err := Decode([]byte(s))
		if (werr == nil) != (err == nil) || json.Valid([]byte(s)) {
			t.Errorf("Decode(%q): error %v, encoding/json's %v", s, err, werr)
		}
		p := parser{data: []byte(s)}
		if p.value(true); p.end() {
			t.Errorf("the parser accepts %q", s)
		}
	}
}

// TestParserDepth: the parser nests as deep as encoding/json, no deeper.
func TestParserDepth(t *testing.T) {
	for _, depth := range []int{maxDepth, maxDepth + 1} {
		for _, pair := range []string{"[]", "{}"} {
			doc := strings.Repeat(pair[:1], depth) + strings.Repeat(pair[1:], depth)
			if pair == "{}" {
				doc = strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
			}
			want := json.Valid([]byte(doc))
			p := parser{data: []byte(doc)}
			if p.value(true); p.end() != want {
				t.Errorf("depth %d of %s: parser accepts %v, json.Valid %v", depth, pair, p.end(), want)
			}
			_, _, err := DecodeObject([]byte(doc))
			if pair == "{}" && (err == nil) != want {
				t.Errorf("DecodeObject at depth %d: %v, json.Valid %v", depth, err, want)
			}
		}
	}
}

func TestParserMatchesEncodingJSON(t *testing.T) {
	for _, s := range parseSeeds {
		want, err := stdDecode([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		got, err := Decode([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Decode(%s) (-encoding/json +parser):\n%s", s, diff)
		}
	}
}

// FuzzDecode: the parser reads every document as encoding/json does.
func FuzzDecode(f *testing.F) {
	for _, s := range append(parseSeeds, badSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := stdDecode(data)
		got, err := Decode(data)
		if (werr == nil) != (err == nil) {
			t.Fatalf("errors differ: encoding/json %v, Decode %v", werr, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Decode(%q) (-encoding/json +parser):\n%s", data, diff)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"App","spec":{"replicas":3,"ratio":0.5,"template":{"metadata":{"labels":{"app":"web","tier":"front"}},
		"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","ports":[{"containerPort":8080,"protocol":"TCP"}],
		"env":[{"name":"A","value":"one"},{"name":"B","value":"two"}]}]}}}}`)
	b.Run("Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Decode(doc)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			stdDecode(doc)
		}
	})
}

// stdDecodeObject is what DecodeObject must match: encoding/json's
// decoding into a map of raw members, the raw ones kept, the others read
// as trees.
func stdDecodeObject(data []byte, raw ...string) (map[string]any, map[string][]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, err
	}
	if top == nil {
		return nil, nil, nil
	}
	tree, kept := map[string]any{}, map[string][]byte{}
	for k, v := range top {
		if slices.Contains(raw, k) {
			kept[k] = v
			continue
		}
		var err error
		if tree[k], err = stdDecode(v); err != nil {
			return nil, nil, err
		}
	}
	return tree, kept, nil
}

// FuzzDecodeObject: DecodeObject reads every document as encoding/json
// does, and keeps the raw members' text.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range append(append(parseSeeds, badSeeds...), `{"metadata":{"name":"a","labels":{"x":"y"}},"kind":"K","spec":[1,{"a":"b"}],"metadata":null}`,
		`{"kind":[{"x":"\"]}"}, 1e3, true],"a":1}`, `null`, `{"kind" : 12 , "metadata" : "s"}`, `{"kind":tru}`, `{"metadata":{"a":01}}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wantTree, wantRaw, werr := stdDecodeObject(data, "kind", "metadata")
		tree, raw, err := DecodeObject(data, "kind", "metadata")
		if (werr == nil) != (err == nil) {
			t.Fatalf("errors differ: encoding/json %v, DecodeObject %v", werr, err)
		}
		if diff := cmp.Diff(wantTree, tree); diff != "" {
			t.Fatalf("tree of %q (-encoding/json +DecodeObject):\n%s", data, diff)
		}
		if len(raw) != len(wantRaw) {
			t.Fatalf("raw members of %q: %q, want %q", data, raw, wantRaw)
		}
		for k, v := range wantRaw {
			if !bytes.Equal(raw[k], v) {
				t.Fatalf("raw %s of %q: %q, want %q", k, data, raw[k], v)
			}
		}
	})
}

// FuzzRawMembers: RawMembers finds the members encoding/json finds, with
// their text, and fails where it fails.
func FuzzRawMembers(f *testing.F) {
	for _, s := range append(append(parseSeeds, badSeeds...), `{"metadata":{"name":"a","labels":{"x":"y"}},"kind":"K","spec":[1,{"a":"b"}],"metadata":null}`,
		`{"kind":[{"x":"\"]}"}, 1e3, true],"a":1}`, `null`, `{"kind" : 12 , "metadata" : "s", "b" : -1.5e3 , "c":false}`, `{"a":{"kind":1}}`,
		`{"a":"\q","metadata":{}}`, `{"metadata":{"x":[1,]}}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, want, werr := stdDecodeObject(data, "kind", "metadata")
		got, err := RawMembers(data, "kind", "metadata")
		if (werr == nil) != (err == nil) {
			t.Fatalf("errors differ: encoding/json %v, RawMembers %v", werr, err)
		}
		if (want == nil) != (got == nil) || len(got) != len(want) {
			t.Fatalf("members of %q: %q, want %q", data, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("member %s of %q: %q, want %q", k, data, got[k], v)
			}
		}
	})
}

func BenchmarkRawMembers(b *testing.B) {
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"App","metadata":{"name":"a","namespace":"b","labels":{"app":"web"}},"spec":{"replicas":3,"ratio":0.5,"template":{"metadata":{"labels":{"app":"web","tier":"front"}},
		"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","ports":[{"containerPort":8080,"protocol":"TCP"}],
		"env":[{"name":"A","value":"one"},{"name":"B","value":"two"}]}]}}}}`)
	b.Run("RawMembers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RawMembers(doc, "metadata")
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				Metadata json.RawMessage `json:"metadata"`
			}
			json.Unmarshal(doc, &v)
		}
	})
}
