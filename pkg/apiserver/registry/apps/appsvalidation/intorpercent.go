package appsvalidation

import (
	"strconv"
	"strings"

	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// percent returns the number of a well-formed percentage such as "25%".
func percent(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String {
		return 0, false
	}
	digits, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// IntOrPercent checks that v, when set, is a non-negative integer or a
// percentage made of digits followed by '%'.
func IntOrPercent(v *intstr.IntOrString, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	switch v.Type {
	case intstr.Int:
		return NonNegative(int64(v.IntVal), p)
	case intstr.String:
		if _, ok := percent(*v); !ok {
			return field.ErrorList{field.Invalid(p, *v, "must be an integer or a percentage: digits followed by '%' (e.g. '5%')")}
		}
		return nil
	}
	return field.ErrorList{field.Invalid(p, *v, "must be an integer or a percentage (e.g. '5%')")}
}

// NotMoreThan100Percent rejects a percentage above 100%; integers pass.
func NotMoreThan100Percent(v *intstr.IntOrString, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if n, ok := percent(*v); ok && n > 100 {
		return field.ErrorList{field.Invalid(p, *v, "must not be greater than 100%")}
	}
	return nil
}

// IntOrPercentValue returns the integer, or the number of a percentage, in
// v; nil and malformed values count as 0.
func IntOrPercentValue(v *intstr.IntOrString) int {
	if v == nil {
		return 0
	}
	if v.Type == intstr.Int {
		return int(v.IntVal)
	}
	n, _ := percent(*v)
	return n
}
