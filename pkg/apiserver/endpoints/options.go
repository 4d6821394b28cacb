package endpoints

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"unicode"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// maxFieldManagerLength is upstream's limit on fieldManager.
const maxFieldManagerLength = 128

// optionsKind names the options object of a write, as upstream's
// validation errors do: CreateOptions, UpdateOptions, PatchOptions or
// DeleteOptions.
func optionsKind(r *http.Request) string {
	switch r.Method {
	case http.MethodPost:
		return "CreateOptions"
	case http.MethodPatch:
		return "PatchOptions"
	case http.MethodDelete:
		return "DeleteOptions"
	default:
		return "UpdateOptions"
	}
}

// writeOptions checks the query parameters every write shares (dryRun,
// and but for deletes fieldValidation and fieldManager) and reports whether
// the write is a dry run. A bad value is a 422 Invalid naming the options
// kind, as upstream's options validation answers.
func writeOptions(r *http.Request) (bool, error) {
	query := r.URL.Query()
	var errs field.ErrorList
	dry := false
	for i, v := range query["dryRun"] {
		switch v {
		case "":
		case meta.DryRunAll:
			dry = true
		default:
			errs = append(errs, field.NotSupported(field.NewPath("dryRun").Index(i), v, []string{meta.DryRunAll}))
		}
	}
	if r.Method != http.MethodDelete {
		modes := []string{"Ignore", "Warn", "Strict"}
		if v := query.Get("fieldValidation"); v != "" && !slices.Contains(modes, v) {
			errs = append(errs, field.NotSupported(field.NewPath("fieldValidation"), v, modes))
		}
		errs = append(errs, validateFieldManager(query.Get("fieldManager"))...)
	}
	if len(errs) > 0 {
		gvk := meta.GroupVersionKind{Group: meta.GroupName, Version: "v1", Kind: optionsKind(r)}
		return false, apierrors.NewInvalid(gvk, "", errs.Causes())
	}
	return dry, nil
}

// validateFieldManager checks fieldManager as upstream does: at most 128
// characters, all printable.
func validateFieldManager(m string) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("fieldManager")
	if len(m) > maxFieldManagerLength {
		errs = append(errs, field.TooLong(p, maxFieldManagerLength))
	}
	for i, c := range m {
		if !unicode.IsPrint(c) {
			errs = append(errs, field.Invalid(p, m, fmt.Sprintf("invalid character %#U (at position %d)", c, i)))
			break
		}
	}
	return errs
}

// boolParam reads a boolean query parameter: absent or empty is false, and
// a value strconv.ParseBool does not read is a 400 (upstream reads any such
// value as true, which turns a typo such as watch=ture into a watch).
func boolParam(query url.Values, name string) (bool, error) {
	v := query.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, apierrors.NewBadRequest(fmt.Sprintf("%s %q is not a boolean", name, v))
	}
	return b, nil
}

// validateListParams checks the parameters lists and watches share: the
// booleans must read (400), and on a list resourceVersionMatch must be one
// of its values, with a resourceVersion, without continue, and not Exact
// at "0" (422 Invalid naming ListOptions, as upstream's ListOptions
// validation). A watch's resourceVersionMatch and sendInitialEvents are
// checked with the watch-list parameters (sendInitialEvents), and
// sendInitialEvents on a list by listParamsOnly.
func validateListParams(query url.Values, watch bool) error {
	for _, name := range []string{"watch", "allowWatchBookmarks", "sendInitialEvents"} {
		if _, err := boolParam(query, name); err != nil {
			return err
		}
	}
	match := query.Get("resourceVersionMatch")
	if watch || match == "" {
		return nil
	}
	rv := query.Get("resourceVersion")
	var errs field.ErrorList
	p := field.NewPath("resourceVersionMatch")
	switch match {
	case resourceVersionMatchNotOlderThan, resourceVersionMatchExact:
		if rv == "" {
			errs = append(errs, field.Forbidden(p, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if query.Get("continue") != "" {
			errs = append(errs, field.Forbidden(p, "resourceVersionMatch is forbidden when continue is provided"))
		}
		if match == resourceVersionMatchExact && rv == "0" {
			errs = append(errs, field.Forbidden(p, `resourceVersionMatch "Exact" is forbidden for resourceVersion "0"`))
		}
	default:
		errs = append(errs, field.NotSupported(p, match, []string{resourceVersionMatchExact, resourceVersionMatchNotOlderThan}))
	}
	return invalidListOptions(errs)
}

// resourceVersionMatchExact is the resourceVersionMatch of a list read at
// exactly its resourceVersion.
const resourceVersionMatchExact = "Exact"
