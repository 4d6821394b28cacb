package resource

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// String returns q in canonical form (see CanonicalString).
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	return string(q.appendCanonical(make([]byte, 0, 24)))
}

// CanonicalString returns q as written on the wire, in JSON and protobuf:
//
//   - zero is "0", and the sign appears only on negative numbers;
//   - DecimalSI and DecimalExponent write an integer mantissa with the largest
//     power of 1000 that keeps it whole: 1.5 is "1500m", 1000m is "1", 12e2
//     is "1200" and 1e3 stays "1e3". DecimalSI falls back to exponent
//     notation beyond its suffixes ("1e21" for 1000E);
//   - BinarySI writes a whole number of 1024s, largest suffix first ("1536Mi"
//     for 1.5Gi). A value below 1024 in magnitude, or one with a fraction,
//     is written as DecimalSI ("512", "1126400m");
//   - any other Format is treated as DecimalExponent.
//
// A quantity parsed from a string returns that string unchanged when upstream
// would: this covers all canonical input and a few quirks, such as "1.500",
// "+1" and "1E3". Arithmetic and Set* methods drop the parsed string.
func (q Quantity) CanonicalString() string {
	return q.String()
}

// appendCanonical appends the canonical form of q, computed afresh, to out.
func (q Quantity) appendCanonical(out []byte) []byte {
	if q.IsZero() {
		return append(out, '0')
	}
	format := q.Format
	switch format {
	case DecimalSI, DecimalExponent:
	case BinarySI:
		if out, ok := q.appendBinary(out); ok {
			return out
		}
		format = DecimalSI
	default:
		format = DecimalExponent
	}
	return q.appendDecimal(out, format)
}

// appendDecimal writes q as mantissa and power-of-1000 suffix.
func (q Quantity) appendDecimal(out []byte, format Format) []byte {
	var e int64
	done := false
	if q.b == nil {
		m, n := stripTens(q.v)
		e = int64(q.scale) + n
		r := floorMod3(e)
		if m, ok := mulPow10(m, r); ok {
			out = strconv.AppendInt(out, m, 10)
			e -= r
			done = true
		}
	}
	if !done {
		// Work on the digits: trailing zeros move into the exponent, then
		// up to two come back to make it a multiple of three.
		digits := q.mantissa().Text(10)
		n := len(digits) - len(strings.TrimRight(digits, "0"))
		e = int64(q.scale) + int64(n)
		r := floorMod3(e)
		out = append(out, digits[:len(digits)-n]...)
		out = append(out, "00"[:r]...)
		e -= r
	}
	if format == DecimalSI {
		if e >= int64(Nano) && e <= int64(Exa) {
			return append(out, decimalSuffixes[(e-int64(Nano))/3]...)
		}
		// No SI suffix this large or small: write the exponent instead
		// of dropping it.
	}
	if e == 0 {
		return out
	}
	out = append(out, 'e')
	return strconv.AppendInt(out, e, 10)
}

// decimalSuffixes are the DecimalSI suffixes for 10^-9, 10^-6, ... 10^18.
var decimalSuffixes = [...]string{"n", "u", "m", "", "k", "M", "G", "T", "P", "E"}

// binarySuffixes are the BinarySI suffixes for 1024^0 ... 1024^6.
var binarySuffixes = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// appendBinary writes q as a whole number of the largest power of 1024 that
// divides it. It declines (ok false) if q has a fraction or |q| < 1024.
func (q Quantity) appendBinary(out []byte) ([]byte, bool) {
	if q.b == nil {
		var n int64
		ok := true
		if q.scale >= 0 {
			n, ok = mulPow10(q.v, int64(q.scale))
		} else {
			var exact bool
			n, exact = divPow10Away(q.v, -int64(q.scale))
			if !exact {
				return out, false
			}
		}
		if ok {
			if n > -1024 && n < 1024 {
				return out, false
			}
			k := 0
			for k < len(binarySuffixes)-1 && n%1024 == 0 {
				n /= 1024
				k++
			}
			out = strconv.AppendInt(out, n, 10)
			return append(out, binarySuffixes[k]...), true
		}
	}
	n := q.mantissa()
	if q.scale >= 0 {
		n.Mul(n, bigPow10(int64(q.scale)))
	} else {
		var exact bool
		n, exact = bigDivPow10Away(n, -int64(q.scale))
		if !exact {
			return out, false
		}
	}
	if n.IsInt64() && n.Int64() > -1024 && n.Int64() < 1024 {
		return out, false
	}
	k := 0
	quo, rem := new(big.Int), new(big.Int)
	for k < len(binarySuffixes)-1 {
		quo.QuoRem(n, big1024, rem)
		if rem.Sign() != 0 {
			break
		}
		n, quo = quo, n
		k++
	}
	out = n.Append(out, 10)
	return append(out, binarySuffixes[k]...), true
}

// MarshalJSON writes q as a JSON string holding String().
func (q Quantity) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 26)
	out = append(out, '"')
	if q.s != "" {
		out = append(out, q.s...)
	} else {
		out = q.appendCanonical(out)
	}
	return append(out, '"'), nil
}

// UnmarshalJSON reads a JSON string or number holding a quantity; null sets
// q to zero. Whitespace inside the string is ignored.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if string(data) == "null" {
		*q = Quantity{}
		return nil
	}
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		if bytes.IndexByte(data, '\\') >= 0 {
			// Rare: let encoding/json undo the escapes.
			var s string
			if err := json.Unmarshal(data, &s); err != nil {
				return err
			}
			data = []byte(s)
		} else {
			data = data[1 : len(data)-1]
		}
	}
	parsed, err := ParseQuantity(string(bytes.TrimSpace(data)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}

// ToUnstructured returns q's string form, as held in unstructured objects.
func (q Quantity) ToUnstructured() interface{} {
	return q.String()
}
