package intstr

import (
	"encoding/json"
	"testing"
)

// FuzzIntOrString decodes arbitrary JSON as an IntOrString: that must never
// panic, and a value that decodes must encode to JSON that decodes to the
// same value; Parse of its String gives it back when it holds an int.
func FuzzIntOrString(f *testing.F) {
	for _, seed := range []string{`1`, `-2147483648`, `"25%"`, `"http"`, `""`, `null`, `1.5`, `2147483648`, `"\u00e9"`, `[1]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v IntOrString
		if err := json.Unmarshal(data, &v); err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s decodes to %+v, which does not encode: %v", data, v, err)
		}
		var again IntOrString
		if err := json.Unmarshal(out, &again); err != nil || again != v {
			t.Fatalf("%s decodes to %+v, which round-trips through %s to %+v, %v", data, v, out, again, err)
		}
		if v.Type == Int {
			if p := Parse(v.String()); p != v {
				t.Fatalf("Parse(%q) = %+v, want %+v", v.String(), p, v)
			}
		}
	})
}
