package v1

import (
	"bytes"

	"platform.io/client/api/meta"
)

// ControllerRevision is an immutable snapshot of some controller state,
// used by DaemonSets and StatefulSets to record template revisions for
// rolling updates and rollback. Only its metadata may change after creation.
type ControllerRevision struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Data is the snapshot, in whatever JSON shape the owning controller
	// chose (a strategic merge patch of the owner, for the built-in ones).
	Data RawExtension `json:"data,omitempty" protobuf:"bytes,2,opt,name=data"`
	// Revision orders the snapshots of one owner.
	Revision int64 `json:"revision" protobuf:"varint,3,opt,name=revision"`
}

// ControllerRevisionList is a page of ControllerRevisions.
type ControllerRevisionList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []ControllerRevision `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// RawExtension holds an embedded JSON document verbatim. It encodes as the
// document itself, or as null when empty.
type RawExtension struct {
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=raw"`
}

// MarshalJSON writes the held document, or null.
func (r RawExtension) MarshalJSON() ([]byte, error) {
	if len(r.Raw) == 0 {
		return []byte("null"), nil
	}
	return r.Raw, nil
}

// UnmarshalJSON keeps a copy of the document; null leaves it empty.
func (r *RawExtension) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		r.Raw = nil
		return nil
	}
	r.Raw = append(r.Raw[:0], b...)
	return nil
}
