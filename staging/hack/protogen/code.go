package main

import (
	"bytes"
	"fmt"
	"go/types"
)

// writeType writes the MarshalProto and UnmarshalProto methods of named.
func writeType(w *bytes.Buffer, named *types.Named) error {
	fields, err := protoFields(named)
	if err != nil {
		return err
	}
	name := named.Obj().Name()
	var enc, dec bytes.Buffer
	for _, f := range fields {
		key := named.Obj().Pkg().Path() + "." + name + "." + f.name
		e, d, err := fieldCode(f, stringLists[key])
		if err != nil {
			return fmt.Errorf("%s.%s: %v", name, f.name, err)
		}
		fmt.Fprintf(&enc, "\t%s\n", e)
		fmt.Fprintf(&dec, "\t\tcase %d:\n\t\t\tdata, err = %s\n", f.num, d)
	}
	fmt.Fprintf(w, "\n// MarshalProto appends the protobuf encoding of m to b.\n")
	fmt.Fprintf(w, "func (m *%s) MarshalProto(b []byte) []byte {\n%s\treturn b\n}\n", name, enc.Bytes())
	// The decoder loops over the fields itself rather than passing a
	// closure to DecodeFields: a direct switch per field instead of an
	// indirect call, which also lets the small Read helpers inline.
	fmt.Fprintf(w, "\n// UnmarshalProto decodes the protobuf encoding data into m.\n")
	fmt.Fprintf(w, "func (m *%s) UnmarshalProto(data []byte) error {\n", name)
	fmt.Fprintf(w, "\tvar err error\n\tfor len(data) > 0 {\n")
	fmt.Fprintf(w, "\t\tvar num protobuf.Number\n\t\tvar typ protobuf.Type\n")
	fmt.Fprintf(w, "\t\tif num, typ, data, err = protobuf.ReadTag(data); err != nil {\n\t\t\treturn err\n\t\t}\n")
	fmt.Fprintf(w, "\t\tswitch num {\n%s\t\tdefault:\n\t\t\tdata, err = protobuf.Skip(num, typ, data)\n\t\t}\n", dec.Bytes())
	fmt.Fprintf(w, "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n")
	return nil
}

// fieldCode returns the statement that appends field f and the expression
// that decodes it. stringList marks a []string encoded as a message.
func fieldCode(f field, stringList bool) (enc, dec string, err error) {
	acc := "m." + f.name
	call := func(helper string) (string, string, error) {
		read := fmt.Sprintf("protobuf.Read%s(typ, data, &%s)", helper, acc)
		if repeated[helper] {
			read = fmt.Sprintf("protobuf.Read%s(num, typ, data, &%s)", helper, acc)
		}
		return fmt.Sprintf("b = protobuf.Append%s(b, %d, %s)", helper, f.num, acc), read, nil
	}
	switch {
	case stringList:
		return call("StringList")
	case isRawMessage(f.typ):
		return call("RawExtension")
	case isMessage(f.typ):
		return fmt.Sprintf("b = protobuf.AppendMessage(b, %d, &%s)", f.num, acc),
			fmt.Sprintf("protobuf.ReadMessage(typ, data, &%s)", acc), nil
	}
	switch t := f.typ.Underlying().(type) {
	case *types.Basic:
		if kind := scalar(t); kind != "" {
			return call(kind)
		}
	case *types.Pointer:
		if isMessage(t.Elem()) {
			return fmt.Sprintf("if %s != nil {\n\t\tb = protobuf.AppendMessage(b, %d, %s)\n\t}", acc, f.num, acc),
				fmt.Sprintf("protobuf.ReadMessagePtr(typ, data, &%s)", acc), nil
		}
		if basic, ok := t.Elem().Underlying().(*types.Basic); ok && scalar(basic) != "" {
			return call(scalar(basic) + "Ptr")
		}
	case *types.Slice:
		if helper := sliceHelper(t.Elem()); helper != "" {
			return call(helper)
		}
	case *types.Map:
		if helper := mapHelper(t); helper != "" {
			return call(helper)
		}
	}
	return "", "", fmt.Errorf("no protobuf encoding for type %s", f.typ)
}

// repeated marks the read helpers of lists and maps, which take the field
// number to size the list or map from the rest of the message.
var repeated = map[string]bool{"Strings": true, "Messages": true, "StringMap": true, "BytesMap": true, "MessageMap": true}

// scalar names the helpers of a basic type: String, Int or Bool, or "".
func scalar(t *types.Basic) string {
	switch info := t.Info(); {
	case info&types.IsString != 0:
		return "String"
	case info&types.IsBoolean != 0:
		return "Bool"
	case info&types.IsInteger != 0:
		return "Int"
	}
	return ""
}

// sliceHelper names the helpers of a slice with elements of type elem.
func sliceHelper(elem types.Type) string {
	if isMessage(elem) {
		return "Messages"
	}
	basic, ok := elem.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	if basic.Kind() == types.Byte {
		return "Bytes"
	}
	switch scalar(basic) {
	case "String":
		return "Strings"
	case "Int":
		return "Ints"
	}
	return ""
}

// mapHelper names the helpers of a map with string keys.
func mapHelper(t *types.Map) string {
	if key, ok := t.Key().Underlying().(*types.Basic); !ok || scalar(key) != "String" {
		return ""
	}
	if isMessage(t.Elem()) {
		return "MessageMap"
	}
	switch elem := t.Elem().Underlying().(type) {
	case *types.Basic:
		if scalar(elem) == "String" {
			return "StringMap"
		}
	case *types.Slice:
		if basic, ok := elem.Elem().Underlying().(*types.Basic); ok && basic.Kind() == types.Byte {
			return "BytesMap"
		}
	}
	return ""
}

// isRawMessage reports whether t is encoding/json's RawMessage, which holds
// an embedded object: upstream's runtime.RawExtension {bytes raw = 1}, as in
// WatchEvent.object. (apps/v1's claim templates also keep their spec and
// status as RawMessage; upstream has PersistentVolumeClaimSpec and Status
// messages there, which this encoding does not reproduce.)
func isRawMessage(t types.Type) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "encoding/json" && named.Obj().Name() == "RawMessage"
}
