package record

import corev1 "platform.io/client/api/core/v1"

// objectKey identifies an involved object (field path aside).
type objectKey struct {
	kind, namespace, name, uid, apiVersion string
}

func objectKeyOf(ref corev1.ObjectReference) objectKey {
	return objectKey{ref.Kind, ref.Namespace, ref.Name, string(ref.UID), ref.APIVersion}
}

// spamKey is what a spam bucket belongs to: a source and an object.
type spamKey struct {
	source corev1.EventSource
	object objectKey
}

func spamKeyOf(ev *corev1.Event) spamKey {
	return spamKey{ev.Source, objectKeyOf(ev.InvolvedObject)}
}

// groupKey is what similar events share: everything but the message and
// the field path.
type groupKey struct {
	source                                 corev1.EventSource
	object                                 objectKey
	eventType, reason                      string
	reportingController, reportingInstance string
}

func groupKeyOf(ev *corev1.Event) groupKey {
	return groupKey{
		source: ev.Source, object: objectKeyOf(ev.InvolvedObject),
		eventType: ev.Type, reason: ev.Reason,
		reportingController: ev.ReportingController, reportingInstance: ev.ReportingInstance,
	}
}

// seriesKey is what correlates an event with one written before: the
// identical event's fields, or for a combined event its group alone.
type seriesKey struct {
	group     groupKey
	fieldPath string
	message   string
	combined  bool
}

func seriesKeyOf(ev *corev1.Event) seriesKey {
	return seriesKey{group: groupKeyOf(ev), fieldPath: ev.InvolvedObject.FieldPath, message: ev.Message}
}

func combinedKeyOf(g groupKey) seriesKey { return seriesKey{group: g, combined: true} }
