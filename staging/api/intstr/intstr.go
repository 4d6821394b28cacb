// Package intstr provides IntOrString, a value that is serialized either as
// a JSON number or as a string (typically a percentage such as "25%"). It is
// used by fields such as maxSurge, maxUnavailable and a service's targetPort.
package intstr

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Type says which member of IntOrString is set.
type Type int64

// The two kinds of value.
const (
	Int    Type = iota // the IntVal member holds the value
	String             // the StrVal member holds the value
)

// IntOrString holds an int32 or a string.
type IntOrString struct {
	Type   Type   `protobuf:"varint,1,opt,name=type,casttype=Type"`
	IntVal int32  `protobuf:"varint,2,opt,name=intVal"`
	StrVal string `protobuf:"bytes,3,opt,name=strVal"`
}

// FromInt returns an IntOrString holding i.
func FromInt(i int) IntOrString { return IntOrString{Type: Int, IntVal: int32(i)} }

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// Parse returns an int value if s is a decimal integer, a string value otherwise.
func Parse(s string) IntOrString {
	if i, err := strconv.Atoi(s); err == nil {
		return FromInt(i)
	}
	return FromString(s)
}

// String renders the value.
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a JSON number or string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON reads a JSON number or string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type = String
		v.IntVal = 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type = Int
	v.StrVal = ""
	return json.Unmarshal(b, &v.IntVal)
}

// ScaledValue resolves v against total: an int is returned as is, a
// percentage "N%" is N percent of total, rounded up when roundUp is set and
// down otherwise.
func ScaledValue(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("intstr: nil value")
	}
	if v.Type == Int {
		return int(v.IntVal), nil
	}
	pct, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, fmt.Errorf("intstr: invalid value %q: must be an integer or a percentage", v.StrVal)
	}
	n, err := strconv.Atoi(pct)
	if err != nil {
		return 0, fmt.Errorf("intstr: invalid value %q: %w", v.StrVal, err)
	}
	f := float64(n) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(f)), nil
	}
	return int(math.Floor(f)), nil
}
