package namespace

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the namespaces row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "namespaces", Singular: "namespace", Kind: "Namespace",
		ShortNames: []string{"ns"},
		New:        func() meta.Object { return &corev1.Namespace{} },
		NameFunc:   validation.IsDNS1123Label,
		HasStatus:  true,
		Strategy: registry.Typed[corev1.Namespace]{
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
			PrepareForDeleteFunc: func(ns *corev1.Namespace) { ns.Status.Phase = corev1.NamespaceTerminating },
			// A namespace stays Terminating until the namespace controller
			// has emptied it and cleared spec.finalizers through /finalize.
			DeletionBlockedFunc: func(ns *corev1.Namespace) bool { return len(ns.Spec.Finalizers) > 0 },
		},
		Finalize: finalize,
		SelectableFields: func(obj meta.Object) map[string]string {
			return map[string]string{"status.phase": string(obj.(*corev1.Namespace).Status.Phase)}
		},
		Table: tableColumns,
	}
}

func prepareForCreate(ns *corev1.Namespace) {
	ns.Status.Phase = corev1.NamespaceActive
	if !hasFinalizer(ns.Spec.Finalizers, corev1.FinalizerPlatform) {
		ns.Spec.Finalizers = append(ns.Spec.Finalizers, corev1.FinalizerPlatform)
	}
	// A namespace names itself; it has no namespace of its own.
	ns.Namespace = ""
}

// prepareForUpdate keeps spec.finalizers: they change only through /finalize.
func prepareForUpdate(ns, old *corev1.Namespace) {
	ns.Spec.Finalizers = old.Spec.Finalizers
}

// finalize returns old with the spec.finalizers of obj, for /finalize.
func finalize(obj, old meta.Object) meta.Object {
	o := old.(*corev1.Namespace)
	o.Spec.Finalizers = obj.(*corev1.Namespace).Spec.Finalizers
	return o
}

func hasFinalizer(fs []corev1.FinalizerName, f corev1.FinalizerName) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

func validate(ns *corev1.Namespace) field.ErrorList {
	return validateFinalizers(ns.Spec.Finalizers, field.NewPath("spec", "finalizers"))
}

func validateUpdate(ns, old *corev1.Namespace) field.ErrorList {
	return validateFinalizers(ns.Spec.Finalizers, field.NewPath("spec", "finalizers"))
}

func validateFinalizers(fs []corev1.FinalizerName, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, f := range fs {
		if f == corev1.FinalizerPlatform {
			continue
		}
		for _, msg := range validation.IsQualifiedName(string(f)) {
			errs = append(errs, field.Invalid(p.Index(i), string(f), msg))
		}
		if len(validation.IsQualifiedName(string(f))) == 0 && !strings.Contains(string(f), "/") {
			errs = append(errs, field.Invalid(p.Index(i), string(f), "a finalizer other than \"platform\" must be domain-qualified, e.g. example.com/cleanup"))
		}
	}
	return errs
}
