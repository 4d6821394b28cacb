package customresourcedefinition

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/crd/cel"
	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// printerColumnTypes are the types an additional printer column may have.
var printerColumnTypes = []string{"integer", "number", "string", "boolean", "date"}

// Validate checks a new definition as upstream does.
func Validate(crd *apiextv1.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	spec := &crd.Spec
	if want := spec.Names.Plural + "." + spec.Group; crd.Name != want {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), crd.Name, `must be spec.names.plural+"."+spec.group`))
	}
	errs = append(errs, validateSpec(spec, field.NewPath("spec"))...)
	errs = append(errs, validateStatus(crd)...)
	return errs
}

// ValidateUpdate checks an update: the definition must still be valid and
// its scope cannot change.
func ValidateUpdate(crd, old *apiextv1.CustomResourceDefinition) field.ErrorList {
	errs := Validate(crd)
	if crd.Spec.Scope != old.Spec.Scope {
		errs = append(errs, field.Invalid(field.NewPath("spec", "scope"), crd.Spec.Scope, "field is immutable"))
	}
	return errs
}

func validateSpec(spec *apiextv1.CustomResourceDefinitionSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case spec.Group == "":
		errs = append(errs, field.Required(p.Child("group"), ""))
	default:
		for _, msg := range validation.IsDNS1123Subdomain(spec.Group) {
			errs = append(errs, field.Invalid(p.Child("group"), spec.Group, msg))
		}
		if len(strings.Split(spec.Group, ".")) < 2 {
			errs = append(errs, field.Invalid(p.Child("group"), spec.Group, "should be a domain with at least one dot"))
		}
	}
	switch spec.Scope {
	case apiextv1.ClusterScoped, apiextv1.NamespaceScoped:
	case "":
		errs = append(errs, field.Required(p.Child("scope"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("scope"), spec.Scope, []apiextv1.ResourceScope{apiextv1.ClusterScoped, apiextv1.NamespaceScoped}))
	}
	errs = append(errs, ValidateNames(&spec.Names, p.Child("names"))...)
	errs = append(errs, validateVersions(spec.Versions, p.Child("versions"))...)
	errs = append(errs, validateConversion(spec.Conversion, p.Child("conversion"))...)
	if spec.PreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
	}
	return errs
}

// ValidateNames checks the resource and kind names.
func ValidateNames(n *apiextv1.CustomResourceDefinitionNames, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	label := func(fp *field.Path, v string) {
		for _, msg := range validation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(fp, v, msg))
		}
	}
	if n.Plural == "" {
		errs = append(errs, field.Required(p.Child("plural"), ""))
	} else {
		label(p.Child("plural"), n.Plural)
	}
	if n.Singular == "" {
		errs = append(errs, field.Required(p.Child("singular"), ""))
	} else {
		label(p.Child("singular"), n.Singular)
	}
	if n.Kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	} else {
		label(p.Child("kind"), strings.ToLower(n.Kind))
	}
	if n.ListKind == "" {
		errs = append(errs, field.Required(p.Child("listKind"), ""))
	} else {
		label(p.Child("listKind"), strings.ToLower(n.ListKind))
		if n.ListKind == n.Kind {
			errs = append(errs, field.Invalid(p.Child("listKind"), n.ListKind, "kind and listKind may not be the same"))
		}
	}
	for i, s := range n.ShortNames {
		label(p.Child("shortNames").Index(i), s)
	}
	for i, c := range n.Categories {
		label(p.Child("categories").Index(i), c)
	}
	return errs
}

func validateVersions(versions []apiextv1.CustomResourceDefinitionVersion, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(versions) == 0 {
		return field.ErrorList{field.Invalid(p, versions, "must have exactly one version marked as storage version")}
	}
	seen := map[string]bool{}
	storage, served := 0, 0
	for i := range versions {
		v := &versions[i]
		vp := p.Index(i)
		for _, msg := range validation.IsDNS1035Label(v.Name) {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, msg))
		}
		if seen[v.Name] {
			errs = append(errs, field.Invalid(p, versions, "must contain unique version names"))
		}
		seen[v.Name] = true
		if v.Storage {
			storage++
		}
		if v.Served {
			served++
		}
		errs = append(errs, validateVersion(v, vp)...)
	}
	if storage != 1 {
		errs = append(errs, field.Invalid(p, versions, "must have exactly one version marked as storage version"))
	}
	if served == 0 {
		errs = append(errs, field.Invalid(p, versions, "must have at least one version marked as served"))
	}
	return errs
}

func validateVersion(v *apiextv1.CustomResourceDefinitionVersion, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v.DeprecationWarning != nil {
		switch {
		case !v.Deprecated:
			errs = append(errs, field.Invalid(p.Child("deprecationWarning"), *v.DeprecationWarning, "can only be set for deprecated versions"))
		case len(*v.DeprecationWarning) > 256:
			errs = append(errs, field.TooLong(p.Child("deprecationWarning"), 256))
		}
	}
	errs = append(errs, validateSchema(v.Schema, p.Child("schema"))...)
	if sub := v.Subresources; sub != nil && sub.Scale != nil {
		sp := p.Child("subresources", "scale")
		if !strings.HasPrefix(sub.Scale.SpecReplicasPath, ".spec.") {
			errs = append(errs, field.Invalid(sp.Child("specReplicasPath"), sub.Scale.SpecReplicasPath, "should be a json path under .spec"))
		}
		if !strings.HasPrefix(sub.Scale.StatusReplicasPath, ".status.") {
			errs = append(errs, field.Invalid(sp.Child("statusReplicasPath"), sub.Scale.StatusReplicasPath, "should be a json path under .status"))
		}
		if l := sub.Scale.LabelSelectorPath; l != nil && !strings.HasPrefix(*l, ".spec.") && !strings.HasPrefix(*l, ".status.") {
			errs = append(errs, field.Invalid(sp.Child("labelSelectorPath"), *l, "should be a json path under either .spec or .status"))
		}
	}
	names := map[string]bool{}
	for i, c := range v.AdditionalPrinterColumns {
		cp := p.Child("additionalPrinterColumns").Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(cp.Child("name"), ""))
		case names[c.Name]:
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		}
		names[c.Name] = true
		if !contains(printerColumnTypes, c.Type) {
			errs = append(errs, field.NotSupported(cp.Child("type"), c.Type, printerColumnTypes))
		}
		if c.JSONPath == "" {
			errs = append(errs, field.Required(cp.Child("jsonPath"), ""))
		} else if !strings.HasPrefix(c.JSONPath, ".") {
			errs = append(errs, field.Invalid(cp.Child("jsonPath"), c.JSONPath, "must be a simple json path starting with ."))
		}
	}
	for i, f := range v.SelectableFields {
		fp := p.Child("selectableFields").Index(i).Child("jsonPath")
		switch {
		case f.JSONPath == "":
			errs = append(errs, field.Required(fp, ""))
		case !strings.HasPrefix(f.JSONPath, ".") || strings.ContainsAny(f.JSONPath, "[]"):
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must be a simple json path starting with . and without array notation"))
		case strings.HasPrefix(f.JSONPath, ".metadata"):
			errs = append(errs, field.Invalid(fp, f.JSONPath, "must not point to fields in metadata"))
		}
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validateSchema requires a schema and checks that it is structural, with
// every problem reported under its path.
func validateSchema(v *apiextv1.CustomResourceValidation, p *field.Path) field.ErrorList {
	sp := p.Child("openAPIV3Schema")
	if v == nil || v.OpenAPIV3Schema == nil {
		return field.ErrorList{field.Required(sp, "schemas are required")}
	}
	data, err := json.Marshal(v.OpenAPIV3Schema)
	if err != nil {
		return field.ErrorList{field.Invalid(sp, "", err.Error())}
	}
	schema, errs := structural.Load(data, sp)
	if len(errs) > 0 {
		return errs
	}
	// The x-kubernetes-validations rules compile, within the cost limits.
	_, errs = cel.Compile(schema, sp, cel.Options{})
	return errs
}

func validateConversion(c *apiextv1.CustomResourceConversion, p *field.Path) field.ErrorList {
	if c == nil {
		return nil
	}
	var errs field.ErrorList
	switch c.Strategy {
	case apiextv1.NoneConverter:
		if c.Webhook != nil {
			errs = append(errs, field.Forbidden(p.Child("webhook"), "should not be set when strategy is not set to Webhook"))
		}
	case apiextv1.WebhookConverter:
		wp := p.Child("webhook")
		if c.Webhook == nil || c.Webhook.ClientConfig == nil {
			return append(errs, field.Required(wp.Child("clientConfig"), "required when strategy is set to Webhook"))
		}
		errs = append(errs, validateClientConfig(c.Webhook.ClientConfig, wp.Child("clientConfig"))...)
		errs = append(errs, validateReviewVersions(c.Webhook.ConversionReviewVersions, wp.Child("conversionReviewVersions"))...)
	default:
		errs = append(errs, field.NotSupported(p.Child("strategy"), c.Strategy, []apiextv1.ConversionStrategyType{apiextv1.NoneConverter, apiextv1.WebhookConverter}))
	}
	return errs
}

func validateClientConfig(cc *apiextv1.WebhookClientConfig, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case (cc.URL == nil) == (cc.Service == nil):
		errs = append(errs, field.Required(p, "exactly one of url or service is required"))
	case cc.URL != nil:
		u, err := url.Parse(*cc.URL)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(p.Child("url"), *cc.URL, err.Error()))
		case u.Scheme != "https":
			errs = append(errs, field.Invalid(p.Child("url"), u.Scheme, `'https' is the only allowed URL scheme`))
		case u.Host == "":
			errs = append(errs, field.Invalid(p.Child("url"), *cc.URL, "host must be specified"))
		case u.User != nil || u.RawQuery != "" || u.Fragment != "":
			errs = append(errs, field.Invalid(p.Child("url"), *cc.URL, "user information, query parameters and fragments are not allowed"))
		}
	default:
		sp := p.Child("service")
		if cc.Service.Name == "" {
			errs = append(errs, field.Required(sp.Child("name"), "service name is required"))
		}
		if cc.Service.Namespace == "" {
			errs = append(errs, field.Required(sp.Child("namespace"), "service namespace is required"))
		}
		if cc.Service.Path != nil {
			errs = append(errs, validateWebhookPath(*cc.Service.Path, sp.Child("path"))...)
		}
		if port := cc.Service.Port; port != nil && (*port < 1 || *port > 65535) {
			errs = append(errs, field.Invalid(sp.Child("port"), *port, "port is not valid: must be between 1 and 65535, inclusive"))
		}
	}
	return errs
}

// validateReviewVersions checks conversionReviewVersions as upstream
// does: not empty, no duplicates, DNS-1035 labels, and at least one
// version this server sends.
func validateReviewVersions(versions []string, p *field.Path) field.ErrorList {
	if len(versions) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range validation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
	}
	if !seen["v1"] && !seen["v1beta1"] {
		errs = append(errs, field.Invalid(p, versions, "must include at least one of v1, v1beta1"))
	}
	return errs
}

// validateWebhookPath checks a webhook service path as upstream does: it
// starts with a slash and each segment is a DNS subdomain.
func validateWebhookPath(path string, p *field.Path) field.ErrorList {
	if !strings.HasPrefix(path, "/") {
		return field.ErrorList{field.Invalid(p, path, "must start with a '/'")}
	}
	if path == "/" {
		return nil
	}
	var errs field.ErrorList
	for i, seg := range strings.Split(path[1:], "/") {
		if seg == "" {
			errs = append(errs, field.Invalid(p, path, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range validation.IsDNS1123Subdomain(seg) {
			errs = append(errs, field.Invalid(p, path, fmt.Sprintf("segment[%d]: %v", i, msg)))
		}
	}
	return errs
}

// validateStatus requires every stored version to be a version of the spec
// and the storage version among the stored ones.
func validateStatus(crd *apiextv1.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("status", "storedVersions")
	names := map[string]bool{}
	for _, v := range crd.Spec.Versions {
		names[v.Name] = true
	}
	for i, v := range crd.Status.StoredVersions {
		if !names[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "must appear in spec.versions"))
		}
	}
	return errs
}
