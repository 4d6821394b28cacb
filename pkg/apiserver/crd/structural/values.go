package structural

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// validateString checks lengths (in Unicode characters, as upstream
// counts), the pattern and the format.
func (s *Schema) validateString(v *run, str string) {
	if s.MaxLength != nil || s.MinLength != nil {
		n := int64(utf8.RuneCountInString(str))
		if s.MaxLength != nil && n > *s.MaxLength {
			v.add(field.TypeTooLong, v.name(), str, tooLong(*s.MaxLength))
		}
		if s.MinLength != nil && n < *s.MinLength {
			name := v.name()
			v.add(field.TypeInvalid, name, str, fmt.Sprintf("%s in body should be at least %d chars long", display(name), *s.MinLength))
		}
	}
	if s.Pattern != "" {
		// An invalid pattern is Check's to report; it matches nothing here
		// so that a schema that skipped Check fails closed.
		if re, err := compilePattern(s.Pattern); err != nil || !re.MatchString(str) {
			name := v.name()
			v.add(field.TypeInvalid, name, str, fmt.Sprintf("%s in body should match '%s'", display(name), s.Pattern))
		}
	}
	if s.Format != "" && !checkFormat(s.Format, str) {
		name := v.name()
		v.add(field.TypeTypeInvalid, name, str, fmt.Sprintf("%s in body must be of type %s: %q", display(name), s.Format, str))
	}
}

// multipleOf reports whether n is a multiple of factor, within the
// relative error upstream tolerates so that 0.3 is a multiple of 0.1.
func multipleOf(n, factor float64) bool {
	q := n / factor
	if factor < 1 {
		q = 1 / factor * n
	}
	if math.IsNaN(q) || math.IsInf(q, 0) {
		return false
	}
	r := math.Round(q)
	if q == r {
		return true
	}
	diff := math.Abs(q - r)
	return diff/(math.Abs(q)+math.Abs(r)) < 1e-9
}

func tooLong(limit int64) string {
	if limit == 1 {
		return "may not be more than 1 byte"
	}
	return fmt.Sprintf("may not be more than %d bytes", limit)
}

// validateNumber checks multipleOf and the bounds; raw is the value as
// the tree holds it (int64 or float64), shown as the bad value.
func (s *Schema) validateNumber(v *run, raw any, n float64) {
	fail := func(format string, bound float64) {
		name := v.name()
		v.add(field.TypeInvalid, name, raw, fmt.Sprintf("%s in body "+format, display(name), bound))
	}
	if m := s.MultipleOf; m != nil && *m > 0 && !multipleOf(n, *m) {
		fail("should be a multiple of %v", *m)
	}
	if s.Maximum != nil {
		if s.ExclusiveMaximum && n >= *s.Maximum {
			fail("should be less than %v", *s.Maximum)
		} else if n > *s.Maximum {
			fail("should be less than or equal to %v", *s.Maximum)
		}
	}
	if s.Minimum != nil {
		if s.ExclusiveMinimum && n <= *s.Minimum {
			fail("should be greater than %v", *s.Minimum)
		} else if n < *s.Minimum {
			fail("should be greater than or equal to %v", *s.Minimum)
		}
	}
}

// validateEnum reports a value that is none of the enum's; the detail
// lists them quoted, as upstream's NotSupported does.
func (s *Schema) validateEnum(v *run, obj any) {
	if len(s.Enum) == 0 {
		return
	}
	for _, e := range s.Enum {
		if equal(e, obj) {
			return
		}
	}
	quoted := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		str, ok := e.(string)
		if !ok {
			b, _ := json.Marshal(e)
			str = string(b)
		}
		quoted[i] = strconv.Quote(str)
	}
	v.add(field.TypeNotSupported, v.name(), obj, "supported values: "+strings.Join(quoted, ", "))
}
