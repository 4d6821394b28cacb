package record

import (
	"errors"
	"fmt"
	"maps"
	"reflect"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Recorder records events about objects. Its methods never block and never
// fail: an event that cannot be recorded is counted and reported to
// Options.OnError.
//
// obj is a meta.Object whose TypeMeta names its kind (or whose kind
// Options.ResolveKind supplies), or a corev1.ObjectReference (value or
// pointer), used as the involved object as it is. eventType is
// corev1.EventTypeNormal or corev1.EventTypeWarning; reason is a short
// CamelCase cause and message a sentence for humans.
type Recorder interface {
	Event(obj any, eventType, reason, message string)
	Eventf(obj any, eventType, reason, format string, args ...any)
	// AnnotatedEventf also sets the event's annotations.
	AnnotatedEventf(obj any, annotations map[string]string, eventType, reason, format string, args ...any)
}

// NewRecorder returns a Recorder whose events come from source.
func (b *Broadcaster) NewRecorder(source corev1.EventSource) Recorder {
	return &recorder{b: b, source: source}
}

type recorder struct {
	b      *Broadcaster
	source corev1.EventSource
}

func (r *recorder) Event(obj any, eventType, reason, message string) {
	r.record(obj, nil, eventType, reason, message)
}

func (r *recorder) Eventf(obj any, eventType, reason, format string, args ...any) {
	r.record(obj, nil, eventType, reason, fmt.Sprintf(format, args...))
}

func (r *recorder) AnnotatedEventf(obj any, annotations map[string]string, eventType, reason, format string, args ...any) {
	r.record(obj, annotations, eventType, reason, fmt.Sprintf(format, args...))
}

// record builds the event and hands it to the Broadcaster.
func (r *recorder) record(obj any, annotations map[string]string, eventType, reason, message string) {
	ev := &corev1.Event{Reason: reason, Message: message, Type: eventType, Source: r.source}
	ref, err := reference(obj, r.b.opts.ResolveKind)
	if err == nil && eventType != corev1.EventTypeNormal && eventType != corev1.EventTypeWarning {
		err = fmt.Errorf("record: event type %q is neither %s nor %s", eventType, corev1.EventTypeNormal, corev1.EventTypeWarning)
	}
	if err != nil {
		r.b.invalid.Add(1)
		r.b.opts.OnError(ev, err)
		return
	}
	now := r.b.opts.Clock.Now()
	t := meta.NewTime(now)
	ev.Name = r.b.names.name(ref.Name, now)
	ev.Namespace = ref.Namespace
	if ev.Namespace == "" {
		ev.Namespace = corev1.NamespaceDefault
	}
	ev.Annotations = maps.Clone(annotations)
	ev.InvolvedObject = ref
	ev.FirstTimestamp, ev.LastTimestamp, ev.Count = t, t, 1
	ev.ReportingController, ev.ReportingInstance = r.source.Component, r.source.Host
	r.b.deliver(ev)
}

// reference returns the involved object for obj.
func reference(obj any, resolve func(meta.Object) (string, string)) (corev1.ObjectReference, error) {
	if v := reflect.ValueOf(obj); obj == nil || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return corev1.ObjectReference{}, errors.New("record: no object")
	}
	var ref corev1.ObjectReference
	switch o := obj.(type) {
	case corev1.ObjectReference:
		ref = o
	case *corev1.ObjectReference:
		ref = *o
	case meta.Object:
		ref = referenceTo(o, resolve)
	default:
		return ref, fmt.Errorf("record: %T is neither a meta.Object nor an ObjectReference", obj)
	}
	if ref.Name == "" {
		return ref, errors.New("record: the object has no name")
	}
	return ref, nil
}

// referenceTo points at o, resolving its kind when its TypeMeta is empty.
func referenceTo(o meta.Object, resolve func(meta.Object) (string, string)) corev1.ObjectReference {
	tm, om := o.GetTypeMeta(), o.GetObjectMeta()
	apiVersion, kind := tm.APIVersion, tm.Kind
	if kind == "" && resolve != nil {
		apiVersion, kind = resolve(o)
	}
	return corev1.ObjectReference{
		Kind:            kind,
		APIVersion:      apiVersion,
		Namespace:       om.Namespace,
		Name:            om.Name,
		UID:             om.UID,
		ResourceVersion: om.ResourceVersion,
	}
}
