package table

import (
	"bytes"
	"encoding/json"
	"fmt"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// The values of the includeObject parameter: what each row carries besides
// its cells.
const (
	// IncludeNone leaves the object out.
	IncludeNone = "None"
	// IncludeMetadata carries the object's metadata as a
	// PartialObjectMetadata; it is the default.
	IncludeMetadata = "Metadata"
	// IncludeObject carries the whole object.
	IncludeObject = "Object"
)

// Options say how to build a Table.
type Options struct {
	// Group and Version are those the client asked the Table in
	// (meta.platform.io or meta.k8s.io, v1 or v1beta1); the Table and its
	// PartialObjectMetadata rows carry them as their apiVersion.
	Group   string
	Version string
	// IncludeObject is None, Object or Metadata; empty means Metadata.
	IncludeObject string
	// NoHeaders leaves the column definitions out, as on every watch event
	// after the first.
	NoHeaders bool
}

// ParseIncludeObject checks an includeObject value and returns it, with
// the empty value meaning Metadata. An unknown value is a 400.
func ParseIncludeObject(v string) (string, error) {
	switch v {
	case "":
		return IncludeMetadata, nil
	case IncludeNone, IncludeMetadata, IncludeObject:
		return v, nil
	}
	return "", apierrors.NewBadRequest(fmt.Sprintf(
		"Unable to convert to Table as requested: includeObject: Unsupported value: %q: supported values: %q, %q, %q",
		v, IncludeMetadata, IncludeNone, IncludeObject))
}

// Build renders objs, objects of res's served kind, as a Table with one row
// each, carrying listMeta (the list's resourceVersion and continue token,
// or for a single object its resourceVersion).
func Build(res *registry.Resource, objs []meta.Object, listMeta meta.ListMeta, opts Options) (*meta.Table, error) {
	include, err := ParseIncludeObject(opts.IncludeObject)
	if err != nil {
		return nil, err
	}
	cols := ColumnsOf(res)
	t := &meta.Table{
		TypeMeta: meta.TypeMeta{Kind: "Table", APIVersion: opts.Group + "/" + opts.Version},
		ListMeta: listMeta,
		Rows:     make([]meta.TableRow, 0, len(objs)),
	}
	if !opts.NoHeaders {
		t.ColumnDefinitions = cols.Columns
	}
	for _, obj := range objs {
		row, err := buildRow(cols, obj, include, opts)
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// buildRow computes one object's cells, conditions and embedded object.
func buildRow(cols *registry.TableColumns, obj meta.Object, include string, opts Options) (meta.TableRow, error) {
	row := meta.TableRow{Cells: cols.Row(obj)}
	if len(row.Cells) != len(cols.Columns) {
		return row, apierrors.NewInternalError(fmt.Errorf("table: %s has %d cells for %d columns",
			obj.GetObjectMeta().Name, len(row.Cells), len(cols.Columns)))
	}
	if cols.Conditions != nil {
		row.Conditions = cols.Conditions(obj)
	}
	var embedded any
	switch include {
	case IncludeObject:
		embedded = obj
	case IncludeMetadata:
		embedded = &meta.PartialObjectMetadata{
			TypeMeta:   meta.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: opts.Group + "/" + opts.Version},
			ObjectMeta: *obj.GetObjectMeta(),
		}
	default:
		return row, nil
	}
	raw, err := encode(embedded)
	if err != nil {
		return row, apierrors.NewInternalError(fmt.Errorf("table: encode row object: %w", err))
	}
	row.Object = raw
	return row, nil
}

// encode writes v as compact JSON without escaping HTML characters, as the
// responses around it are written.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
