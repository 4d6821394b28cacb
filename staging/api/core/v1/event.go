package v1

import "platform.io/client/api/meta"

// Event reports something that happened to an object. Events are
// best-effort and short-lived; nothing should depend on them.
type Event struct {
	meta.TypeMeta `json:",inline"`
	// ObjectMeta's key has no omitempty here, as upstream declares it.
	meta.ObjectMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`

	// InvolvedObject is the object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject" protobuf:"bytes,2,opt,name=involvedObject"`
	// Reason is a short, machine-readable CamelCase cause.
	Reason         string      `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	Message        string      `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	Source         EventSource `json:"source,omitempty" protobuf:"bytes,5,opt,name=source"`
	FirstTimestamp meta.Time   `json:"firstTimestamp,omitempty" protobuf:"bytes,6,opt,name=firstTimestamp"`
	LastTimestamp  meta.Time   `json:"lastTimestamp,omitempty" protobuf:"bytes,7,opt,name=lastTimestamp"`
	Count          int32       `json:"count,omitempty" protobuf:"varint,8,opt,name=count"`
	// Type is EventTypeNormal or EventTypeWarning.
	Type      string           `json:"type,omitempty" protobuf:"bytes,9,opt,name=type"`
	EventTime meta.MicroTime   `json:"eventTime,omitempty" protobuf:"bytes,10,opt,name=eventTime"`
	Series    *EventSeries     `json:"series,omitempty" protobuf:"bytes,11,opt,name=series"`
	Action    string           `json:"action,omitempty" protobuf:"bytes,12,opt,name=action"`
	Related   *ObjectReference `json:"related,omitempty" protobuf:"bytes,13,opt,name=related"`
	// ReportingController is serialized as "reportingComponent", always present.
	ReportingController string `json:"reportingComponent" protobuf:"bytes,14,opt,name=reportingComponent"`
	ReportingInstance   string `json:"reportingInstance" protobuf:"bytes,15,opt,name=reportingInstance"`
}

// EventList is a list of events.
type EventList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Event `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// EventSource names the component (and node) that reported an event.
type EventSource struct {
	Component string `json:"component,omitempty" protobuf:"bytes,1,opt,name=component"`
	Host      string `json:"host,omitempty" protobuf:"bytes,2,opt,name=host"`
}

// EventSeries summarizes an event that keeps recurring.
type EventSeries struct {
	Count            int32          `json:"count,omitempty" protobuf:"varint,1,opt,name=count"`
	LastObservedTime meta.MicroTime `json:"lastObservedTime,omitempty" protobuf:"bytes,2,opt,name=lastObservedTime"`
}

// Values of Event.Type.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)
