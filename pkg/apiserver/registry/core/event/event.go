package event

import (
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Length limits of the fields of events that carry an eventTime.
const (
	ReportingInstanceLengthLimit = 128
	ActionLengthLimit            = 128
	ReasonLengthLimit            = 128
	MessageLengthLimit           = 1024
)

// Resource is the events row of the registry; ttl returns the lifetime of
// an event in seconds (the server's --event-ttl).
func Resource(ttl func() int64) *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "events", Singular: "event", Kind: "Event",
		ShortNames:          []string{"ev"},
		Namespaced:          true,
		New:                 func() meta.Object { return &corev1.Event{} },
		NameFunc:            validation.IsPathSegmentName,
		AllowCreateOnUpdate: true,
		TTLSeconds:          ttl,
		Strategy: registry.Typed[corev1.Event]{
			ValidateFunc:       validate,
			ValidateUpdateFunc: func(e, _ *corev1.Event) field.ErrorList { return validate(e) },
		},
		SelectableFields: func(obj meta.Object) map[string]string { return selectableFields(obj.(*corev1.Event)) },
		Table:            tableColumns,
	}
}

func selectableFields(e *corev1.Event) map[string]string {
	source := e.Source.Component
	if source == "" {
		source = e.ReportingController
	}
	o := e.InvolvedObject
	return map[string]string{
		"involvedObject.kind":            o.Kind,
		"involvedObject.namespace":       o.Namespace,
		"involvedObject.name":            o.Name,
		"involvedObject.uid":             string(o.UID),
		"involvedObject.apiVersion":      o.APIVersion,
		"involvedObject.resourceVersion": o.ResourceVersion,
		"involvedObject.fieldPath":       o.FieldPath,
		"reason":                         e.Reason,
		"reportingComponent":             e.ReportingController,
		"source":                         source,
		"type":                           e.Type,
	}
}

var eventTypes = []string{corev1.EventTypeNormal, corev1.EventTypeWarning}

// validate checks an event. Events without an eventTime come from old
// clients and only need a namespace that agrees with the involved object;
// events with one must also name their reporter, action and reason.
func validate(e *corev1.Event) field.ErrorList {
	var errs field.ErrorList
	nsPath := field.NewPath("involvedObject", "namespace")
	mismatch := field.Invalid(nsPath, e.InvolvedObject.Namespace, "does not match the event's namespace")
	if e.EventTime.IsZero() {
		switch {
		case e.InvolvedObject.Namespace == "" && e.Namespace != "" && e.Namespace != corev1.NamespaceDefault:
			errs = append(errs, mismatch)
		case e.InvolvedObject.Namespace != "" && e.Namespace != e.InvolvedObject.Namespace:
			errs = append(errs, mismatch)
		}
	} else {
		if e.InvolvedObject.Namespace == "" && e.Namespace != corev1.NamespaceDefault && e.Namespace != corev1.NamespaceSystem {
			errs = append(errs, mismatch)
		}
		errs = append(errs, validateReporting(e)...)
	}
	if e.Type != "" && e.Type != corev1.EventTypeNormal && e.Type != corev1.EventTypeWarning {
		errs = append(errs, field.NotSupported(field.NewPath("type"), e.Type, eventTypes))
	}
	errs = append(errs, corevalidation.NonNegative(field.NewPath("count"), int64(e.Count))...)
	if e.Series != nil {
		errs = append(errs, corevalidation.NonNegative(field.NewPath("series", "count"), int64(e.Series.Count))...)
	}
	return errs
}

// validateReporting checks the fields events with an eventTime must carry.
func validateReporting(e *corev1.Event) field.ErrorList {
	var errs field.ErrorList
	rc := field.NewPath("reportingComponent")
	if e.ReportingController == "" {
		errs = append(errs, field.Required(rc, ""))
	} else {
		errs = append(errs, corevalidation.QualifiedName(rc, e.ReportingController)...)
	}
	errs = append(errs, requiredWithLimit(field.NewPath("reportingInstance"), e.ReportingInstance, ReportingInstanceLengthLimit)...)
	errs = append(errs, requiredWithLimit(field.NewPath("action"), e.Action, ActionLengthLimit)...)
	errs = append(errs, requiredWithLimit(field.NewPath("reason"), e.Reason, ReasonLengthLimit)...)
	if len(e.Message) > MessageLengthLimit {
		errs = append(errs, field.Invalid(field.NewPath("message"), "", limitMsg(MessageLengthLimit)))
	}
	return errs
}

// requiredWithLimit requires v and bounds its length; a long value is not
// echoed back.
func requiredWithLimit(p *field.Path, v string, limit int) field.ErrorList {
	switch {
	case v == "":
		return field.ErrorList{field.Required(p, "")}
	case len(v) > limit:
		return field.ErrorList{field.Invalid(p, "", limitMsg(limit))}
	}
	return nil
}

func limitMsg(n int) string { return fmt.Sprintf("may have at most %d characters", n) }
