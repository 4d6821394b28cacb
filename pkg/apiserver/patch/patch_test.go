package patch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

const simpleDoc = `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":1,"list":[1,2]}}`

type applyCase struct {
	name    string
	typ     Type
	orig    string // simpleDoc when empty
	patch   string
	want    string
	wantErr error
}

func runApplyCases(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := c.orig
			if orig == "" {
				orig = simpleDoc
			}
			got, err := Apply(c.typ, []byte(orig), []byte(c.patch), podType)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("want %v, got %v (result %s)", c.wantErr, err, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			assertJSONEqual(t, got, c.want)
		})
	}
}

func TestJSONPatch(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "add", typ: JSONPatch,
			patch: `[{"op":"add","path":"/metadata/labels/new","value":"x"}]`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front","new":"x"}},"spec":{"replicas":1,"list":[1,2]}}`},
		{name: "add to list end", typ: JSONPatch,
			patch: `[{"op":"add","path":"/spec/list/-","value":3}]`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":1,"list":[1,2,3]}}`},
		{name: "replace", typ: JSONPatch,
			patch: `[{"op":"replace","path":"/spec/replicas","value":3}]`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":3,"list":[1,2]}}`},
		{name: "remove", typ: JSONPatch,
			patch: `[{"op":"remove","path":"/metadata/labels/tier"}]`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":1,"list":[1,2]}}`},
		{name: "test passes then replace", typ: JSONPatch,
			patch: `[{"op":"test","path":"/spec/replicas","value":1},{"op":"replace","path":"/spec/replicas","value":2}]`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":2,"list":[1,2]}}`},
		{name: "empty patch", typ: JSONPatch, patch: `[]`, want: simpleDoc},
		{name: "test fails", typ: JSONPatch,
			patch:   `[{"op":"test","path":"/spec/replicas","value":5},{"op":"replace","path":"/spec/replicas","value":2}]`,
			wantErr: ErrInvalidPatch},
		{name: "remove missing path", typ: JSONPatch,
			patch: `[{"op":"remove","path":"/metadata/annotations/x"}]`, wantErr: ErrInvalidPatch},
		{name: "replace missing path", typ: JSONPatch,
			patch: `[{"op":"replace","path":"/nope","value":1}]`, wantErr: ErrInvalidPatch},
		{name: "unknown op", typ: JSONPatch, patch: `[{"op":"frob","path":"/a"}]`, wantErr: ErrInvalidPatch},
		{name: "not an array", typ: JSONPatch, patch: `{"op":"add","path":"/a","value":1}`, wantErr: ErrInvalidPatch},
		{name: "null", typ: JSONPatch, patch: `null`, wantErr: ErrInvalidPatch},
		{name: "not JSON", typ: JSONPatch, patch: `[{"op":`, wantErr: ErrInvalidPatch},
		{name: "root replaced by non-object", typ: JSONPatch,
			patch: `[{"op":"replace","path":"","value":[1]}]`, wantErr: ErrInvalidPatch},
	})
}

func TestJSONPatchTestFailureKeepsCause(t *testing.T) {
	_, err := Apply(JSONPatch, []byte(simpleDoc), []byte(`[{"op":"test","path":"/spec/replicas","value":5}]`), nil)
	if !errors.Is(err, ErrInvalidPatch) || !errors.Is(err, jsonpatch.ErrTestFailed) {
		t.Fatalf("want ErrInvalidPatch wrapping ErrTestFailed, got %v", err)
	}
}

// TestJSONPatchCannotApply: operations that fail on the object are told
// apart from a malformed document (422 and 400 at the handler).
func TestJSONPatchCannotApply(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		cannotApply bool
	}{
		{"test fails", `[{"op":"test","path":"/spec/replicas","value":5}]`, true},
		{"remove missing path", `[{"op":"remove","path":"/metadata/annotations/x"}]`, true},
		{"unknown op", `[{"op":"frob","path":"/a"}]`, false},
		{"root replaced by non-object", `[{"op":"replace","path":"","value":[1]}]`, true},
		{"not JSON", `[{"op":`, false},
		{"path not a pointer", `[{"op":"add","path":"spec/replicas","value":3}]`, false},
		{"test of the root without a value", `[{"op":"test","path":""}]`, false},
		{"add without a value", `[{"op":"add","path":"/x"}]`, false},
		{"from not a pointer", `[{"op":"copy","from":"spec","path":"/x"}]`, false},
		{"not an array", `{"op":"add","path":"/a","value":1}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Apply(JSONPatch, []byte(simpleDoc), []byte(tc.patch), nil)
			if !errors.Is(err, ErrInvalidPatch) {
				t.Fatalf("want ErrInvalidPatch, got %v", err)
			}
			if got := errors.Is(err, ErrCannotApply); got != tc.cannotApply {
				t.Fatalf("errors.Is(ErrCannotApply) = %v, want %v (%v)", got, tc.cannotApply, err)
			}
		})
	}
}

func TestJSONPatchOpLimit(t *testing.T) {
	ops := func(n int) string {
		var b strings.Builder
		b.WriteString("[")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"op":"test","path":"/spec/replicas","value":1}`)
		}
		b.WriteString("]")
		return b.String()
	}
	if _, err := Apply(JSONPatch, []byte(simpleDoc), []byte(ops(MaxJSONPatchOps)), nil); err != nil {
		t.Fatalf("%d ops should be accepted: %v", MaxJSONPatchOps, err)
	}
	_, err := Apply(JSONPatch, []byte(simpleDoc), []byte(ops(MaxJSONPatchOps+1)), nil)
	if !errors.Is(err, ErrInvalidPatch) || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("want op limit error, got %v", err)
	}
}

func TestJSONPatchCopyGrowthLimited(t *testing.T) {
	// Each copy doubles the document; 40 of them would need terabytes.
	var b strings.Builder
	b.WriteString(`[{"op":"add","path":"/d","value":{"a":"` + strings.Repeat("x", 1024) + `"}}`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `,{"op":"copy","from":"/d","path":"/d/c%d"}`, i)
	}
	b.WriteString("]")
	_, err := Apply(JSONPatch, []byte(`{}`), []byte(b.String()), nil)
	var sizeErr *jsonpatch.AccumulatedCopySizeError
	if !errors.Is(err, ErrInvalidPatch) || !errors.As(err, &sizeErr) {
		t.Fatalf("want ErrInvalidPatch, got %v", err)
	}
}

func TestMergePatch(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "null deletes", typ: MergePatch,
			patch: `{"metadata":{"labels":{"tier":null}}}`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":1,"list":[1,2]}}`},
		{name: "nested merge and list replace", typ: MergePatch,
			patch: `{"spec":{"replicas":2,"list":[9],"new":{"a":1,"b":null}}}`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":2,"list":[9],"new":{"a":1}}}`},
		{name: "strategic directives are plain data", typ: MergePatch,
			patch: `{"spec":{"$patch":"replace"}}`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":1,"list":[1,2],"$patch":"replace"}}`},
		{name: "array body", typ: MergePatch, patch: `[{"a":1}]`, wantErr: ErrInvalidPatch},
		{name: "scalar body", typ: MergePatch, patch: `"x"`, wantErr: ErrInvalidPatch},
		{name: "not JSON", typ: MergePatch, patch: `{"a":`, wantErr: ErrInvalidPatch},
		{name: "strategic array body", typ: StrategicMerge, patch: `[]`, wantErr: ErrInvalidPatch},
	})
}

func TestApplyTypes(t *testing.T) {
	runApplyCases(t, []applyCase{
		{name: "unknown type", typ: "application/json", patch: `{}`, wantErr: ErrUnsupportedType},
		{name: "apply patch is not supported", typ: "application/apply-patch+yaml", patch: `{}`, wantErr: ErrUnsupportedType},
		{name: "empty type", typ: "", patch: `{}`, wantErr: ErrUnsupportedType},
		{name: "garbage type", typ: ";;", patch: `{}`, wantErr: ErrUnsupportedType},
		{name: "parameters are ignored", typ: "application/merge-patch+json; charset=utf-8",
			patch: `{"spec":null}`, want: `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}}}`},
		{name: "case is ignored", typ: "Application/Strategic-Merge-Patch+JSON",
			patch: `{"spec":{"list":[3]}}`,
			want:  `{"metadata":{"name":"web","labels":{"app":"web","tier":"front"}},"spec":{"replicas":1,"list":[3]}}`},
	})
}

func TestApplyBadOriginal(t *testing.T) {
	for _, typ := range []Type{JSONPatch, MergePatch, StrategicMerge} {
		_, err := Apply(typ, []byte(`[1]`), []byte(`{}`), nil)
		if err == nil || errors.Is(err, ErrInvalidPatch) || errors.Is(err, ErrUnsupportedType) {
			t.Errorf("%s: want an unclassified error for a non-object original, got %v", typ, err)
		}
	}
}
