package event

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get events. Unlike other kinds,
// the name is a wide column, last.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.Column("Last Seen", table.TypeString, "Time since the event was last observed."),
		table.Column("Type", table.TypeString, "The event's type: Normal or Warning."),
		table.Column("Reason", table.TypeString, "Why the event happened, in CamelCase."),
		table.Column("Object", table.TypeString, "The object the event is about, as kind/name."),
		table.Wide("Subobject", table.TypeString, "The part of the object the event is about, such as a container."),
		table.Wide("Source", table.TypeString, "The component, and host, that reported the event."),
		table.Column("Message", table.TypeString, "A human-readable description of the event."),
		table.Wide("First Seen", table.TypeString, "Time since the event was first observed."),
		table.Wide("Count", table.TypeString, "How many times the event has occurred."),
		func() meta.TableColumnDefinition {
			c := table.NameColumn()
			c.Priority = 1
			return c
		}(),
	},
	Row: func(obj meta.Object) []any { return tableRow(obj.(*corev1.Event)) },
}

func tableRow(e *corev1.Event) []any {
	first := table.Since(e.FirstTimestamp.Time)
	if e.FirstTimestamp.IsZero() {
		first = table.Since(e.EventTime.Time)
	}
	last := table.Since(e.LastTimestamp.Time)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	switch {
	case e.Series != nil:
		last, count = table.Since(e.Series.LastObservedTime.Time), e.Series.Count
	case count == 0:
		// Events written through the newer API do not count singletons.
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	return []any{
		last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, source(e),
		strings.TrimSpace(e.Message), first, int64(count), e.Name,
	}
}

// source is "component, host", falling back to the reporting controller and
// instance, and leaving out an empty host.
func source(e *corev1.Event) string {
	component, host := e.Source.Component, e.Source.Host
	if component == "" {
		component = e.ReportingController
	}
	if host == "" {
		host = e.ReportingInstance
	}
	if host == "" {
		return component
	}
	return component + ", " + host
}
