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

// validateEmbedded checks the object at p of an
// x-kubernetes-embedded-resource schema as upstream does: apiVersion and
// kind are required strings, apiVersion is a group/version, and metadata
// (optional) is valid object metadata with a path-segment name.
func validateEmbedded(v *run, obj map[string]any) {
	for _, k := range []string{"apiVersion", "kind"} {
		val, found := obj[k]
		if !found {
			v.add(field.TypeRequired, child(v.name(), k), nil, "must not be empty")
			continue
		}
		str, ok := val.(string)
		switch {
		case !ok:
			v.add(field.TypeInvalid, child(v.name(), k), val, "must be a string")
		case str == "":
			v.add(field.TypeInvalid, child(v.name(), k), str, "must not be empty")
		case k == "apiVersion" && strings.Count(str, "/") > 1:
			v.add(field.TypeInvalid, child(v.name(), k), str, "unexpected GroupVersion string: "+str)
		}
	}
	raw, found := obj["metadata"]
	if !found {
		return
	}
	m, err := objectMeta(raw)
	if err != nil {
		v.add(field.TypeInvalid, child(v.name(), "metadata"), raw, err.Error())
		return
	}
	if m.Name == "" {
		m.Name = "fakename" // upstream's stand-in: a missing name is not an error here
	}
	errs := validation.ObjectMeta(m, m.Namespace != "", validation.IsPathSegmentName, nil)
	if len(errs) > 0 {
		base := field.NewPath(v.at(child(v.name(), "metadata")))
		for _, e := range errs {
			e.Field = join(base, e.Field)
		}
		v.errs = append(v.errs, errs...)
	}
}

// errNotObject is metadata that is not a JSON object.
type errNotObject struct{}

func (errNotObject) Error() string { return "must be an object" }

// objectMeta reads metadata from the tree. The common fields are taken
// directly; anything else goes through JSON decoding, whose errors name
// what is wrong.
func objectMeta(raw any) (*meta.ObjectMeta, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		if _, isList := raw.([]any); !isList && raw != nil {
			return jsonObjectMeta(raw)
		}
		return nil, errNotObject{}
	}
	var m meta.ObjectMeta
	for k, val := range obj {
		var ok bool
		switch k {
		case "name":
			m.Name, ok = val.(string)
		case "generateName":
			m.GenerateName, ok = val.(string)
		case "namespace":
			m.Namespace, ok = val.(string)
		case "labels":
			m.Labels, ok = stringMap(val)
		case "annotations":
			m.Annotations, ok = stringMap(val)
		}
		if !ok {
			return jsonObjectMeta(raw)
		}
	}
	return &m, nil
}

func stringMap(v any) (map[string]string, bool) {
	in, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(in))
	for k, e := range in {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

func jsonObjectMeta(raw any) (*meta.ObjectMeta, error) {
	var m meta.ObjectMeta
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		return nil, err
	}
	return &m, nil
}
