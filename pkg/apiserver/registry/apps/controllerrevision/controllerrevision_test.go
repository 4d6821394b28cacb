package controllerrevision

import (
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Group != "apps" || r.Version != "v1" || r.Name != "controllerrevisions" || r.Singular != "controllerrevision" || r.Kind != "ControllerRevision" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || r.AllowCreateOnUpdate || r.Scale != nil || len(r.ShortNames) != 0 || len(r.Categories) != 0 {
		t.Errorf("flags: %+v", r)
	}
	if _, ok := r.New().(*appsv1.ControllerRevision); !ok {
		t.Errorf("New() = %T", r.New())
	}
}

func revision(data string, n int64) *appsv1.ControllerRevision {
	cr := &appsv1.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: "db-5f7c9", Namespace: "default"}, Revision: n}
	if data != "" {
		cr.Data.Raw = []byte(data)
	}
	return cr
}

func has(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		cr   *appsv1.ControllerRevision
		path string
		typ  field.Type
	}{
		{"valid", revision(`{"spec":{"template":{}}}`, 1), "", ""},
		{"revision zero", revision(`{}`, 0), "", ""},
		{"no data", revision("", 1), "data", field.TypeRequired},
		{"null data", revision("null", 1), "data", field.TypeRequired},
		{"negative revision", revision(`{}`, -1), "revision", field.TypeInvalid},
	}
	for _, c := range cases {
		errs := Validate(c.cr)
		if c.path == "" {
			if len(errs) > 0 {
				t.Errorf("%s: unexpected errors %v", c.name, errs)
			}
			continue
		}
		if !has(errs, c.path, c.typ) {
			t.Errorf("%s: want %s at %s, got %v", c.name, c.typ, c.path, errs)
		}
	}
}

func TestValidateUpdate(t *testing.T) {
	old := revision(`{"a":1,"b":[1,2]}`, 3)
	same := revision(`{ "b": [1, 2], "a": 1 }`, 3)
	same.Labels = map[string]string{"controller-revision-hash": "5f7c9"}
	if errs := ValidateUpdate(same, old); len(errs) > 0 {
		t.Errorf("metadata-only update rejected: %v", errs)
	}
	if errs := ValidateUpdate(revision(`{"a":2,"b":[1,2]}`, 3), old); !has(errs, "data", field.TypeInvalid) {
		t.Errorf("data change allowed: %v", errs)
	}
	if errs := ValidateUpdate(revision(`{"a":1,"b":[1,2]}`, 4), old); len(errs) > 0 {
		t.Errorf("renumbering rejected: %v", errs)
	}
}
