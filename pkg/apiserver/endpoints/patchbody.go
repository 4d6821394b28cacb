package endpoints

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/patch"
	"platform.io/platform/pkg/apiserver/registry"
)

// applyPatch is the media type of server-side apply.
const applyPatch = "application/apply-patch+yaml"

// patchBody returns the patch type named by Content-Type and the body, or 415.
func patchBody(r *http.Request) (patch.Type, []byte, error) {
	pt := patch.Type(mediaType(r))
	switch pt {
	case patch.JSONPatch, patch.MergePatch, patch.StrategicMerge:
	case applyPatch:
		return "", nil, apierrors.NewUnsupportedMediaType("server-side apply (" + applyPatch + ") is not served by this server yet; use kubectl apply without --server-side")
	default:
		return "", nil, apierrors.NewUnsupportedMediaType(fmt.Sprintf("the patch content type %q is not supported; use %q, %q or %q",
			pt, patch.JSONPatch, patch.MergePatch, patch.StrategicMerge))
	}
	body, err := readBody(r)
	if err != nil {
		return "", nil, err
	}
	return pt, body, nil
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
