package meta

import "encoding/json"

// Table is a tabular rendering of objects (meta.platform.io/v1 and
// v1beta1), returned when a client asks for as=Table.
type Table struct {
	TypeMeta          `json:",inline"`
	ListMeta          `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions" protobuf:"bytes,2,rep,name=columnDefinitions"`
	Rows              []TableRow              `json:"rows" protobuf:"bytes,3,rep,name=rows"`
}

// TableColumnDefinition describes one column.
type TableColumnDefinition struct {
	Name        string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Type        string `json:"type" protobuf:"bytes,2,opt,name=type"`
	Format      string `json:"format" protobuf:"bytes,3,opt,name=format"`
	Description string `json:"description" protobuf:"bytes,4,opt,name=description"`
	Priority    int32  `json:"priority" protobuf:"varint,5,opt,name=priority"`
}

// TableRow is one object's row.
type TableRow struct {
	Cells      []any               `json:"cells" protobuf:"-"`
	Conditions []TableRowCondition `json:"conditions,omitempty" protobuf:"bytes,2,rep,name=conditions"`
	// Object is the row's object as PartialObjectMetadata, the full object,
	// or absent, as includeObject asks.
	Object json.RawMessage `json:"object,omitempty" protobuf:"bytes,3,opt,name=object"`
}

// TableRowCondition is a condition of a row, such as Completed.
type TableRowCondition struct {
	Type    string `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status  string `json:"status" protobuf:"bytes,2,opt,name=status"`
	Reason  string `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	Message string `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
}

// PartialObjectMetadata is an object reduced to its type and metadata.
type PartialObjectMetadata struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
}
