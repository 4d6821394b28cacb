package endpoints

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
)

func TestFieldProblems(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"clean", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`, nil},
		{"wrong case at top", `{"Metadata":{"name":"p"}}`, []string{`unknown field "Metadata"`}},
		{"wrong case inline TypeMeta", `{"KIND":"Pod"}`, []string{`unknown field "KIND"`}},
		{"wrong case in a list element", `{"spec":{"containers":[{"Name":"c"}]}}`, []string{`unknown field "spec.containers[0].Name"`}},
		{"duplicate at top", `{"metadata":{"name":"a"},"metadata":{"name":"b"}}`, []string{`duplicate field "metadata"`}},
		{"duplicate nested", `{"metadata":{"name":"a","name":"b"}}`, []string{`duplicate field "metadata.name"`}},
		{"duplicate map key", `{"metadata":{"labels":{"a":"1","a":"2"}}}`, []string{`duplicate field "metadata.labels.a"`}},
		{"self-decoding values are not entered", `{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]},"metadata":{"creationTimestamp":"2020-01-01T00:00:00Z"}}`, nil},
		{"unknown fields are left to the decoder", `{"bogus":{"Metadata":1}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fieldProblems([]byte(tc.doc), reflect.TypeOf(&corev1.Pod{}))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
