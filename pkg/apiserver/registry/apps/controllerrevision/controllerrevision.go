package controllerrevision

import (
	"bytes"
	"encoding/json"
	"reflect"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the controllerrevisions row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: appsv1.GroupName, Version: "v1", Name: "controllerrevisions", Singular: "controllerrevision", Kind: "ControllerRevision",
		Namespaced: true,
		New:        func() meta.Object { return &appsv1.ControllerRevision{} },
		Strategy: registry.Typed[appsv1.ControllerRevision]{
			ValidateFunc:       Validate,
			ValidateUpdateFunc: ValidateUpdate,
		},
	}
}

// Validate requires data and a non-negative revision.
func Validate(cr *appsv1.ControllerRevision) field.ErrorList {
	var errs field.ErrorList
	if len(cr.Data.Raw) == 0 || bytes.Equal(bytes.TrimSpace(cr.Data.Raw), []byte("null")) {
		errs = append(errs, field.Required(field.NewPath("data"), "the revision's data is required"))
	}
	return append(errs, appsvalidation.NonNegative(cr.Revision, field.NewPath("revision"))...)
}

// ValidateUpdate keeps data as it was created. The revision number may
// change, as upstream allows: a rollback renumbers the old revision it
// returns to as the newest.
func ValidateUpdate(cr, old *appsv1.ControllerRevision) field.ErrorList {
	errs := Validate(cr)
	if !sameDocument(cr.Data.Raw, old.Data.Raw) {
		errs = append(errs, field.Invalid(field.NewPath("data"), cr.Data, "field is immutable"))
	}
	return errs
}

// sameDocument compares two JSON documents by meaning, so a resent
// revision may differ in whitespace or key order.
func sameDocument(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}
