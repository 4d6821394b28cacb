package fieldmanager

import (
	"encoding/json"
	"testing"

	"platform.io/client/api/meta"
)

func TestIdentifierAsEncodingJSON(t *testing.T) {
	now := meta.Now()
	cases := []meta.ManagedFieldsEntry{
		{Manager: "kubectl", Operation: OperationUpdate, APIVersion: "v1"},
		{Manager: "kubectl", Operation: OperationApply, APIVersion: "apps/v1", Subresource: "status"},
		{Manager: "ctl", Operation: OperationUpdate, APIVersion: "v1", Time: &now, FieldsType: fieldsV1, FieldsV1: &meta.FieldsV1{Raw: []byte(`{}`)}},
		{Operation: OperationUpdate},
		{},
		{Manager: `a "quoted" <manager> & more`, Operation: OperationUpdate, APIVersion: "v1"},
		{Manager: "ünïcode\u2028", Operation: OperationUpdate, Subresource: "scale"},
		{Manager: "tab\there", Operation: OperationApply},
	}
	for _, e := range cases {
		t.Run(e.Manager, func(t *testing.T) {
			got, err := identifier(e)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(identity(e))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("identifier = %s, encoding/json writes %s", got, want)
			}
			back, err := parseIdentifier(got)
			if err != nil {
				t.Fatal(err)
			}
			if back != identity(e) {
				t.Errorf("parsed back as %+v, want %+v", back, identity(e))
			}
		})
	}
}
