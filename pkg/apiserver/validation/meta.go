package validation

import (
	"strings"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// TotalAnnotationSizeLimit caps the summed size of an object's annotation keys and values.
const TotalAnnotationSizeLimit = 256 * 1024

// ObjectMeta checks the metadata of an object being created or updated.
// nameFn checks the name; namespaced says whether a namespace is required.
func ObjectMeta(m *meta.ObjectMeta, namespaced bool, nameFn NameFunc, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case m.Name == "" && m.GenerateName == "":
		errs = append(errs, field.Required(p.Child("name"), "name or generateName is required"))
	case m.Name != "":
		for _, msg := range nameFn(m.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), m.Name, msg))
		}
	}
	if m.GenerateName != "" {
		// The generated suffix is 5 characters; the prefix alone may end in '-'.
		for _, msg := range nameFn(strings.TrimSuffix(m.GenerateName, "-") + "x") {
			errs = append(errs, field.Invalid(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	if namespaced {
		if m.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		} else {
			for _, msg := range IsDNS1123Label(m.Namespace) {
				errs = append(errs, field.Invalid(p.Child("namespace"), m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, field.Forbidden(p.Child("namespace"), "not allowed on this type"))
	}
	if m.Generation < 0 {
		errs = append(errs, field.Invalid(p.Child("generation"), m.Generation, "must be greater than or equal to 0"))
	}
	errs = append(errs, Labels(m.Labels, p.Child("labels"))...)
	errs = append(errs, Annotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, ownerReferences(m.OwnerReferences, p.Child("ownerReferences"))...)
	errs = append(errs, finalizers(m.Finalizers, p.Child("finalizers"))...)
	return errs
}

// ObjectMetaUpdate checks that an update leaves the immutable metadata alone.
func ObjectMetaUpdate(m, old *meta.ObjectMeta, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	immutable := func(name string, a, b any) {
		if a != b {
			errs = append(errs, field.Invalid(p.Child(name), a, "field is immutable"))
		}
	}
	immutable("name", m.Name, old.Name)
	immutable("namespace", m.Namespace, old.Namespace)
	immutable("uid", string(m.UID), string(old.UID))
	if !m.CreationTimestamp.Equal(old.CreationTimestamp.Time) {
		errs = append(errs, field.Invalid(p.Child("creationTimestamp"), m.CreationTimestamp, "field is immutable"))
	}
	if old.DeletionTimestamp != nil && (m.DeletionTimestamp == nil || !m.DeletionTimestamp.Equal(old.DeletionTimestamp.Time)) {
		errs = append(errs, field.Invalid(p.Child("deletionTimestamp"), m.DeletionTimestamp, "field is immutable; may only be set through a delete"))
	}
	if old.DeletionTimestamp != nil {
		for _, f := range m.Finalizers {
			if !old.HasFinalizer(f) {
				errs = append(errs, field.Forbidden(p.Child("finalizers"), "no new finalizers can be added if the object is being deleted, found new finalizer "+f))
			}
		}
	}
	errs = append(errs, Labels(m.Labels, p.Child("labels"))...)
	errs = append(errs, Annotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, ownerReferences(m.OwnerReferences, p.Child("ownerReferences"))...)
	errs = append(errs, finalizers(m.Finalizers, p.Child("finalizers"))...)
	return errs
}

// Labels checks label keys and values.
func Labels(labels map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k, v := range labels {
		for _, msg := range IsQualifiedName(k) {
			errs = append(errs, field.Invalid(p, k, msg))
		}
		for _, msg := range IsLabelValue(v) {
			errs = append(errs, field.Invalid(p.Key(k), v, msg))
		}
	}
	return errs
}

// Annotations checks annotation keys and the total size.
func Annotations(annotations map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	total := 0
	for k, v := range annotations {
		for _, msg := range IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(p, k, msg))
		}
		total += len(k) + len(v)
	}
	if total > TotalAnnotationSizeLimit {
		errs = append(errs, field.TooLong(p, TotalAnnotationSizeLimit))
	}
	return errs
}

func ownerReferences(refs []meta.OwnerReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	controllers := 0
	for i, r := range refs {
		ip := p.Index(i)
		if r.APIVersion == "" {
			errs = append(errs, field.Invalid(ip.Child("apiVersion"), r.APIVersion, "must not be empty"))
		}
		if r.Kind == "" {
			errs = append(errs, field.Invalid(ip.Child("kind"), r.Kind, "must not be empty"))
		}
		if r.Name == "" {
			errs = append(errs, field.Invalid(ip.Child("name"), r.Name, "must not be empty"))
		}
		if r.UID == "" {
			errs = append(errs, field.Invalid(ip.Child("uid"), r.UID, "must not be empty"))
		}
		if r.Controller != nil && *r.Controller {
			controllers++
		}
	}
	if controllers > 1 {
		errs = append(errs, field.Invalid(p, refs, "only one reference can have controller set to true"))
	}
	return errs
}

func finalizers(fs []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, f := range fs {
		for _, msg := range IsQualifiedName(f) {
			errs = append(errs, field.Invalid(p.Index(i), f, msg))
		}
	}
	return errs
}
