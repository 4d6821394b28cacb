package structural

import (
	"encoding/json"
	"strings"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// metaFields are the fields every resource has beside its schema's: an
// embedded resource (and the root) keeps them whatever its properties say.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// validateEmbedded checks the object at name of an
// x-kubernetes-embedded-resource schema as upstream does: apiVersion and
// kind are required strings, apiVersion is a group/version, and metadata
// (optional) is valid object metadata with a path-segment name.
func validateEmbedded(v *run, name string, obj map[string]any) {
	for _, k := range []string{"apiVersion", "kind"} {
		val, found := obj[k]
		if !found {
			v.add(field.TypeRequired, child(name, k), nil, "must not be empty")
			continue
		}
		str, ok := val.(string)
		switch {
		case !ok:
			v.add(field.TypeInvalid, child(name, k), val, "must be a string")
		case str == "":
			v.add(field.TypeInvalid, child(name, k), str, "must not be empty")
		case k == "apiVersion" && strings.Count(str, "/") > 1:
			v.add(field.TypeInvalid, child(name, k), str, "unexpected GroupVersion string: "+str)
		}
	}
	raw, found := obj["metadata"]
	if !found {
		return
	}
	mp := child(name, "metadata")
	var m meta.ObjectMeta
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if _, isObj := raw.(map[string]any); err != nil || !isObj {
		detail := "must be an object"
		if err != nil {
			detail = err.Error()
		}
		v.add(field.TypeInvalid, mp, raw, detail)
		return
	}
	if m.Name == "" {
		m.Name = "fakename" // upstream's stand-in: a missing name is not an error here
	}
	base := field.NewPath(v.at(mp))
	v.errs = append(v.errs, validation.ObjectMeta(&m, m.Namespace != "", validation.IsPathSegmentName, base)...)
}
