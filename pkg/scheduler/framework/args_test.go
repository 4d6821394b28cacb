package framework

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeArgs(t *testing.T) {
	type args struct {
		Weight int32    `json:"weight,omitempty"`
		Names  []string `json:"names,omitempty"`
	}
	defaults := args{Weight: 1}
	tests := []struct {
		name    string
		raw     string
		want    args
		wantErr error // nil: no error; errAny: any error
	}{
		{name: "nil keeps the defaults", raw: "", want: defaults},
		{name: "white space keeps the defaults", raw: " \n\t", want: defaults},
		{name: "null keeps the defaults", raw: " null ", want: defaults},
		{name: "empty object keeps the defaults", raw: "{}", want: defaults},
		{name: "fields set", raw: `{"weight": 3, "names": ["a"]}`, want: args{Weight: 3, Names: []string{"a"}}},
		{name: "trailing white space", raw: "{\"weight\": 2}\n", want: args{Weight: 2}},
		{name: "unknown field", raw: `{"wieght": 3}`, wantErr: errAny},
		{name: "wrong type", raw: `{"weight": "3"}`, wantErr: errAny},
		{name: "malformed", raw: `{"weight":`, wantErr: errAny},
		{name: "not an object", raw: `[1]`, wantErr: errAny},
		{name: "a second value", raw: `{} {}`, wantErr: errTrailingData},
		{name: "trailing garbage", raw: `{"weight": 2} x`, wantErr: errTrailingData},
		{name: "stray closing brace", raw: `{}}`, wantErr: errTrailingData},
		{name: "stray closing bracket", raw: `{}]`, wantErr: errTrailingData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := defaults
			err := DecodeArgs("Plugin", json.RawMessage(tc.raw), &got)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("DecodeArgs(%q) = %v, want no error", tc.raw, err)
			case tc.wantErr == nil:
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("DecodeArgs(%q) (-want +got):\n%s", tc.raw, diff)
				}
			case err == nil:
				t.Fatalf("DecodeArgs(%q) succeeded with %+v, want an error", tc.raw, got)
			case !strings.HasPrefix(err.Error(), "Plugin: decoding args: "):
				t.Errorf("DecodeArgs(%q) = %q, want it to name the plugin", tc.raw, err)
			case tc.wantErr != errAny && !errors.Is(err, tc.wantErr):
				t.Errorf("DecodeArgs(%q) = %v, want %v", tc.raw, err, tc.wantErr)
			}
		})
	}
}

// errAny stands for any error in TestDecodeArgs.
var errAny = errors.New("any error")

func TestDecodeArgsWrapsTheDecoderError(t *testing.T) {
	var v struct{ N int }
	err := DecodeArgs("Plugin", json.RawMessage(`{"N": "x"}`), &v)
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		t.Errorf("DecodeArgs = %v, want it to wrap a *json.UnmarshalTypeError", err)
	}
}
