package structural

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"platform.io/client/api/jsontree"
)

// typicalSchema is a CRD schema of the usual size: a spec of a dozen
// fields of every kind and a small status.
const typicalSchema = `{"type":"object","properties":{
	"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":63}}},
	"spec":{"type":"object","required":["image"],"properties":{
		"image":{"type":"string","minLength":1,"pattern":"^[a-z0-9./:-]+$"},
		"replicas":{"type":"integer","format":"int32","minimum":0,"maximum":100,"default":1},
		"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
		"env":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"value":{"type":"string"}}}},
		"labels":{"type":"object","additionalProperties":{"type":"string","maxLength":63}},
		"mode":{"type":"string","enum":["fast","safe"],"default":"safe"},
		"ratio":{"type":"number","multipleOf":0.25,"maximum":1},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"},"maxItems":8},
		"schedule":{"type":"string","format":"date-time"},
		"resources":{"type":"object","properties":{"cpu":{"type":"string","format":"quantity"},"memory":{"type":"string","format":"quantity"}}},
		"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}},
	"status":{"type":"object","properties":{"ready":{"type":"boolean"},"replicas":{"type":"integer"},
		"conditions":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
			"items":{"type":"object","required":["type","status"],"properties":{"type":{"type":"string"},"status":{"type":"string","enum":["True","False","Unknown"]},
				"lastTransitionTime":{"type":"string","format":"date-time"},"message":{"type":"string","maxLength":32768}}}}}}}}`

const typicalObject = `{"apiVersion":"example.io/v1","kind":"App","metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
	"spec":{"image":"registry.example.io/web:1.2.3","replicas":3,"port":8080,
		"env":[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"C","value":"3"}],
		"labels":{"team":"web","tier":"frontend"},"mode":"fast","ratio":0.5,"tags":["a","b","c"],
		"schedule":"2026-11-27T10:00:00Z","resources":{"cpu":"500m","memory":"1Gi"},
		"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[]}}},
	"status":{"ready":true,"replicas":3,"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-27T10:00:00Z","message":"ok"}]}}`

func TestTypicalIsValid(t *testing.T) {
	s := mustParse(t, typicalSchema)
	if errs := s.Check(nil); len(errs) > 0 {
		t.Fatalf("Check: %v", messages(errs))
	}
	obj := object(t, typicalObject)
	if removed := s.Prune(obj, true); len(removed) > 0 {
		t.Fatalf("pruned %v", removed)
	}
	s.ApplyDefaults(obj)
	if errs := s.Validate(nil, obj); len(errs) > 0 {
		t.Fatalf("Validate: %v", messages(errs))
	}
}

// BenchmarkValidate is the schema validation cost of one typical object.
func BenchmarkValidate(b *testing.B) {
	s := mustParse(b, typicalSchema)
	obj := object(b, typicalObject)
	b.ReportAllocs()
	for b.Loop() {
		if errs := s.Validate(nil, obj); len(errs) > 0 {
			b.Fatal(messages(errs))
		}
	}
}

// BenchmarkWrite is everything a create does with the schema: prune,
// default and validate a fresh copy of the object.
func BenchmarkWrite(b *testing.B) {
	s := mustParse(b, typicalSchema)
	obj := object(b, typicalObject)
	b.ReportAllocs()
	for b.Loop() {
		o := jsontree.DeepCopy(obj).(map[string]any)
		s.Prune(o, true)
		s.ApplyDefaults(o)
		if errs := s.Validate(nil, o); len(errs) > 0 {
			b.Fatal(messages(errs))
		}
	}
}

// largeSchema builds a real-world-sized CRD schema: every object level
// has width described scalar fields, a nested object and a list of
// objects, depth levels deep.
func largeSchema(width, depth int) string {
	var b strings.Builder
	writeLargeNode(&b, width, depth)
	return b.String()
}

func writeLargeNode(b *strings.Builder, width, depth int) {
	b.WriteString(`{"type":"object","description":"` + strings.Repeat("Describes the level. ", 10) + `","properties":{`)
	for i := range width {
		if i > 0 {
			b.WriteByte(',')
		}
		kinds := []string{`"type":"string","maxLength":253`, `"type":"integer","minimum":0`, `"type":"boolean"`, `"type":"string","enum":["A","B","C"]`}
		fmt.Fprintf(b, `"f%d":{%s,"description":"%s"}`, i, kinds[i%len(kinds)], strings.Repeat("Field documentation text. ", 8))
	}
	if depth > 0 {
		b.WriteString(`,"child":`)
		writeLargeNode(b, width, depth-1)
		b.WriteString(`,"list":{"type":"array","items":`)
		writeLargeNode(b, width, depth-1)
		b.WriteString(`}`)
	}
	b.WriteString(`}}`)
}

// largeObject fills every field of a largeSchema(width, depth) object,
// with lists of two items.
func largeObject(width, depth int) map[string]any {
	o := map[string]any{}
	values := []any{"text", int64(7), true, "B"}
	for i := range width {
		o[fmt.Sprintf("f%d", i)] = values[i%len(values)]
	}
	if depth > 0 {
		o["child"] = largeObject(width, depth-1)
		o["list"] = []any{largeObject(width, depth-1), largeObject(width, depth-1)}
	}
	return o
}

func TestLargeSchema(t *testing.T) {
	doc := largeSchema(20, 6)
	if len(doc) < 300_000 {
		t.Fatalf("large schema is only %d bytes", len(doc))
	}
	s := mustParse(t, doc)
	if errs := s.Check(nil); len(errs) > 0 {
		t.Fatalf("Check: %v", messages(errs[:1]))
	}
	if errs := s.Validate(nil, largeObject(20, 6)); len(errs) > 0 {
		t.Fatalf("Validate: %v", messages(errs[:1]))
	}
}

// BenchmarkLarge measures parsing and checking a several-hundred-KB
// schema (a CRD install), and validating an instance filling it.
func BenchmarkLarge(b *testing.B) {
	doc := []byte(largeSchema(20, 6))
	b.Run(fmt.Sprintf("ParseCheck/%dKB", len(doc)/1024), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := Parse(doc)
			if err != nil {
				b.Fatal(err)
			}
			if errs := s.Check(nil); len(errs) > 0 {
				b.Fatal(messages(errs))
			}
		}
	})
	s, _ := Parse(doc)
	obj := largeObject(20, 6)
	raw, _ := json.Marshal(obj)
	b.Run(fmt.Sprintf("Validate/%dKB", len(raw)/1024), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if errs := s.Validate(nil, obj); len(errs) > 0 {
				b.Fatal(messages(errs))
			}
		}
	})
}
