package intstr

import (
	"encoding/json"
	"testing"
)

func TestJSONRoundTrip(t *testing.T) {
	for _, in := range []string{`1`, `"25%"`, `"http"`, `0`} {
		var v IntOrString
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(v)
		if err != nil || string(out) != in {
			t.Errorf("round trip of %s gave %s, %v", in, out, err)
		}
	}
	var v IntOrString
	if err := json.Unmarshal([]byte(`{}`), &v); err == nil {
		t.Error("an object decoded as IntOrString")
	}
}

func TestScaledValue(t *testing.T) {
	cases := []struct {
		v       IntOrString
		total   int
		roundUp bool
		want    int
		wantErr bool
	}{
		{FromInt(3), 10, false, 3, false},
		{FromString("25%"), 10, true, 3, false},
		{FromString("25%"), 10, false, 2, false},
		{FromString("100%"), 7, false, 7, false},
		{FromString("abc"), 10, false, 0, true},
		{FromString("x%"), 10, false, 0, true},
	}
	for _, c := range cases {
		got, err := ScaledValue(&c.v, c.total, c.roundUp)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("ScaledValue(%v, %d, %v) = %d, %v; want %d, err %v", c.v, c.total, c.roundUp, got, err, c.want, c.wantErr)
		}
	}
}
