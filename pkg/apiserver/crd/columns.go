package crd

import (
	"strconv"
	"strings"
	"time"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the Table columns of a version: the name, then its
// additionalPrinterColumns, or the age when it declares none, as upstream.
func tableColumns(v *apiextv1.CustomResourceDefinitionVersion) *registry.TableColumns {
	cols := []meta.TableColumnDefinition{table.NameColumn()}
	var paths [][]string
	types := []string{""}
	if len(v.AdditionalPrinterColumns) == 0 {
		cols = append(cols, meta.TableColumnDefinition{Name: "Age", Type: table.TypeDate,
			Description: "When the server created the object; Age shows the time since then."})
		paths = append(paths, []string{"metadata", "creationTimestamp"})
		types = append(types, table.TypeDate)
	}
	for _, c := range v.AdditionalPrinterColumns {
		cols = append(cols, meta.TableColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority})
		paths = append(paths, columnPath(c.JSONPath))
		types = append(types, c.Type)
	}
	return &registry.TableColumns{
		Columns: cols,
		Row: func(obj meta.Object) []any {
			o := obj.(*instance.Object)
			cells := []any{o.Name}
			for i, p := range paths {
				cells = append(cells, cell(o, p, types[i+1]))
			}
			return cells
		},
	}
}

// columnPath splits a printer column's simple JSON path (".spec.a.b",
// ".spec.list[0].c") into its steps; an index is a step of digits in
// brackets. Paths with filters or wildcards give nil: their cells are empty.
func columnPath(p string) []string {
	p = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(p, "{"), "}"), ".")
	if strings.ContainsAny(p, "?*@") {
		return nil
	}
	var steps []string
	for _, part := range strings.Split(p, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			steps = append(steps, name)
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			if !ok {
				return nil
			}
			steps = append(steps, "["+idx+"]")
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps
}

// cell evaluates path on o; nil when absent.
func cell(o *instance.Object, path []string, typ string) any {
	if len(path) == 0 {
		return nil
	}
	if path[0] == "metadata" && len(path) == 2 && path[1] == "creationTimestamp" {
		return o.CreationTimestamp.UTC().Format(time.RFC3339)
	}
	var keys []string
	var v any
	found := true
	for i, step := range path {
		if strings.HasPrefix(step, "[") {
			if i == 0 {
				return nil
			}
			if v, found = o.Field(keys); !found {
				return nil
			}
			v = index(v, step, path[i+1:])
			return convertCell(v, typ)
		}
		keys = append(keys, step)
	}
	if v, found = o.Field(keys); !found {
		return nil
	}
	return convertCell(v, typ)
}

// index follows an index step and the steps after it.
func index(v any, step string, rest []string) any {
	n, err := strconv.Atoi(strings.Trim(step, "[]"))
	list, ok := v.([]any)
	if err != nil || !ok || n < 0 || n >= len(list) {
		return nil
	}
	v = list[n]
	for i, s := range rest {
		if strings.HasPrefix(s, "[") {
			return index(v, s, rest[i+1:])
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[s]
	}
	return v
}

// convertCell gives a value the column's type where it can.
func convertCell(v any, typ string) any {
	switch typ {
	case "integer":
		if f, ok := v.(float64); ok {
			return int64(f)
		}
	case "number":
		if n, ok := v.(int64); ok {
			return float64(n)
		}
	}
	return v
}
