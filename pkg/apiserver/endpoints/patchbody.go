package endpoints

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"

	"sigs.k8s.io/yaml"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/patch"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// applyPatch is the media type of server-side apply.
const applyPatch = patch.Type("application/apply-patch+yaml")

// patchBody returns the patch type named by Content-Type and the body, or
// 415. An apply is refused with 415 and the reason noApply when that is
// set: the store does not track managedFields (the ServerSideApply
// feature gate off), or the target is not applied to. A custom resource,
// which has no Go schema, refuses strategic merge patch as upstream does.
// An apply body, YAML or JSON, is returned as JSON.
func patchBody(r *http.Request, noApply string, custom bool) (patch.Type, []byte, error) {
	pt := patch.Type(mediaType(r))
	if custom && pt == patch.StrategicMerge {
		return "", nil, apierrors.NewUnsupportedMediaType(fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s, %s, %s",
			patch.JSONPatch, patch.MergePatch, applyPatch))
	}
	switch pt {
	case patch.JSONPatch, patch.MergePatch, patch.StrategicMerge:
	case applyPatch:
		if noApply != "" {
			return "", nil, apierrors.NewUnsupportedMediaType(noApply)
		}
	default:
		return "", nil, apierrors.NewUnsupportedMediaType(fmt.Sprintf("the patch content type %q is not supported; use %q, %q, %q or %q",
			pt, patch.JSONPatch, patch.MergePatch, patch.StrategicMerge, applyPatch))
	}
	body, err := readBody(r)
	if err != nil {
		return "", nil, err
	}
	if pt == applyPatch {
		if body, err = yaml.YAMLToJSON(body); err != nil {
			return "", nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
		}
	}
	return pt, body, nil
}

// applyGateOff is why an apply is refused with the gate off.
const applyGateOff = "server-side apply (" + string(applyPatch) + ") is disabled: the ServerSideApply feature gate is off"

// applyNotServed answers an apply where the store keeps no managedFields.
func applyNotServed(s *registry.Store) string {
	if s.FieldManager() == nil {
		return applyGateOff
	}
	return ""
}

// patchOptions reads fieldManager and force against the patch type: apply
// needs a field manager, and only apply may force, as upstream validates.
func patchOptions(r *http.Request, pt patch.Type) (force bool, err error) {
	query := r.URL.Query()
	var errs field.ErrorList
	if pt == applyPatch && query.Get("fieldManager") == "" {
		errs = append(errs, field.Required(field.NewPath("fieldManager"), "is required for apply patch"))
	}
	if _, set := query["force"]; set {
		if pt != applyPatch {
			errs = append(errs, field.Forbidden(field.NewPath("force"), "may not be specified for non-apply patch"))
		} else if force, err = boolParam(query, "force"); err != nil {
			return false, err
		}
	}
	if len(errs) > 0 {
		return false, apierrors.NewInvalid(meta.GroupVersionKind{Group: meta.GroupName, Version: "v1", Kind: "PatchOptions"}, "", errs.Causes())
	}
	return force, nil
}

// patchError maps a patch failure to a 422 (a JSON patch that does not
// apply), a 400 (a malformed patch) or, for anything else, a 500.
func patchError(err error) error {
	if errors.Is(err, patch.ErrCannotApply) {
		return apierrors.New(http.StatusUnprocessableEntity, meta.StatusReasonInvalid, err.Error())
	}
	if errors.Is(err, patch.ErrInvalidPatch) {
		return apierrors.NewBadRequest(err.Error())
	}
	if errors.Is(err, patch.ErrUnsupportedType) {
		return apierrors.NewUnsupportedMediaType(err.Error())
	}
	return apierrors.NewInternalError(err)
}

// schemaOf returns the struct type strategic merge patch follows for res.
func schemaOf(res *registry.Resource) reflect.Type {
	return reflect.TypeOf(res.New()).Elem()
}
