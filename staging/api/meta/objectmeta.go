package meta

// UID is a unique identifier assigned by the server on creation.
type UID string

// ObjectMeta is the metadata every persisted object has.
type ObjectMeta struct {
	Name                       string               `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	GenerateName               string               `json:"generateName,omitempty" protobuf:"bytes,2,opt,name=generateName"`
	Namespace                  string               `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`
	SelfLink                   string               `json:"selfLink,omitempty" protobuf:"bytes,4,opt,name=selfLink"`
	UID                        UID                  `json:"uid,omitempty" protobuf:"bytes,5,opt,name=uid,casttype=UID"`
	ResourceVersion            string               `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	Generation                 int64                `json:"generation,omitempty" protobuf:"varint,7,opt,name=generation"`
	CreationTimestamp          Time                 `json:"creationTimestamp" protobuf:"bytes,8,opt,name=creationTimestamp"`
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty" protobuf:"bytes,9,opt,name=deletionTimestamp"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty" protobuf:"varint,10,opt,name=deletionGracePeriodSeconds"`
	Labels                     map[string]string    `json:"labels,omitempty" protobuf:"bytes,11,rep,name=labels"`
	Annotations                map[string]string    `json:"annotations,omitempty" protobuf:"bytes,12,rep,name=annotations"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty" patchStrategy:"merge" patchMergeKey:"uid" protobuf:"bytes,13,rep,name=ownerReferences"`
	Finalizers                 []string             `json:"finalizers,omitempty" patchStrategy:"merge" protobuf:"bytes,14,rep,name=finalizers"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty" protobuf:"bytes,17,rep,name=managedFields"`
}

// GetObjectMeta lets every type that embeds ObjectMeta satisfy Object.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// OwnerReference points at an object this one depends on; the garbage
// collector deletes dependents whose owners are gone.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion" protobuf:"bytes,5,opt,name=apiVersion"`
	Kind               string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name               string `json:"name" protobuf:"bytes,3,opt,name=name"`
	UID                UID    `json:"uid" protobuf:"bytes,4,opt,name=uid,casttype=UID"`
	Controller         *bool  `json:"controller,omitempty" protobuf:"varint,6,opt,name=controller"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty" protobuf:"varint,7,opt,name=blockOwnerDeletion"`
}

// ManagedFieldsEntry records which manager owns which fields (Server Side Apply).
type ManagedFieldsEntry struct {
	Manager     string    `json:"manager,omitempty" protobuf:"bytes,1,opt,name=manager"`
	Operation   string    `json:"operation,omitempty" protobuf:"bytes,2,opt,name=operation,casttype=ManagedFieldsOperationType"`
	APIVersion  string    `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
	Time        *Time     `json:"time,omitempty" protobuf:"bytes,4,opt,name=time"`
	FieldsType  string    `json:"fieldsType,omitempty" protobuf:"bytes,6,opt,name=fieldsType"`
	FieldsV1    *FieldsV1 `json:"fieldsV1,omitempty" protobuf:"bytes,7,opt,name=fieldsV1"`
	Subresource string    `json:"subresource,omitempty" protobuf:"bytes,8,opt,name=subresource"`
}

// FieldsV1 is a set of fields in the upstream "FieldsV1" JSON trie format, kept opaque.
type FieldsV1 struct {
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=Raw"`
}

// MarshalJSON writes the raw trie.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if f.Raw == nil {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps the raw trie.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		f.Raw = nil
		return nil
	}
	f.Raw = append(f.Raw[:0], b...)
	return nil
}

// ListMeta is the metadata of a list: the snapshot's version and the chunking token.
type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty" protobuf:"bytes,1,opt,name=selfLink"`
	ResourceVersion    string `json:"resourceVersion,omitempty" protobuf:"bytes,2,opt,name=resourceVersion"`
	Continue           string `json:"continue,omitempty" protobuf:"bytes,3,opt,name=continue"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty" protobuf:"bytes,4,opt,name=remainingItemCount"`
}

// GetListMeta lets every list type that embeds ListMeta satisfy ListObject.
func (m *ListMeta) GetListMeta() *ListMeta { return m }

// Finalizer names used by the server's deletion rules.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// HasFinalizer reports whether m lists the finalizer f.
func (m *ObjectMeta) HasFinalizer(f string) bool {
	for _, x := range m.Finalizers {
		if x == f {
			return true
		}
	}
	return false
}
