package table

import (
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Column types, as the Table API names them (OpenAPI types and formats).
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeBoolean = "boolean"
	TypeDate    = "date"
	FormatName  = "name"
)

// Descriptions of the columns most resources share.
const (
	nameDescription       = "Name of the object, unique within its namespace (or cluster-wide for cluster-scoped kinds)."
	creationDescription   = "When the server created the object; Age shows the time since then."
	containersDescription = "Names of each container in the template."
	imagesDescription     = "Images referenced by each container in the template."
)

// Column defines a column shown by default (priority 0).
func Column(name, typ, description string) meta.TableColumnDefinition {
	return meta.TableColumnDefinition{Name: name, Type: typ, Description: description}
}

// Wide defines a column shown only with -o wide (priority 1).
func Wide(name, typ, description string) meta.TableColumnDefinition {
	c := Column(name, typ, description)
	c.Priority = 1
	return c
}

// NameColumn is the object's name, the first column of nearly every kind.
func NameColumn() meta.TableColumnDefinition {
	c := Column("Name", TypeString, nameDescription)
	c.Format = FormatName
	return c
}

// AgeColumn is the time since the object was created.
func AgeColumn() meta.TableColumnDefinition {
	return Column("Age", TypeString, creationDescription)
}

// ContainersColumn and ImagesColumn are the wide columns listing a pod
// template's containers and their images.
func ContainersColumn() meta.TableColumnDefinition {
	return Wide("Containers", TypeString, containersDescription)
}

// ImagesColumn lists the images of a pod template's containers.
func ImagesColumn() meta.TableColumnDefinition {
	return Wide("Images", TypeString, imagesDescription)
}

// SelectorColumn is the wide column showing a label selector.
func SelectorColumn(description string) meta.TableColumnDefinition {
	return Wide("Selector", TypeString, description)
}

// defaultColumns are what a resource without columns of its own shows:
// its name and its creation time, a date the client renders.
var defaultColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		NameColumn(),
		Column("Created At", TypeDate, "When the server created the object."),
	},
	Row: func(obj meta.Object) []any {
		m := obj.GetObjectMeta()
		return []any{m.Name, m.CreationTimestamp.UTC().Format(time.RFC3339)}
	},
}

// ColumnsOf returns the columns res is printed with: its own, or the default two.
func ColumnsOf(res *registry.Resource) *registry.TableColumns {
	if res.Table != nil {
		return res.Table
	}
	return defaultColumns
}
