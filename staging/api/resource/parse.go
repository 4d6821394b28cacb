package resource

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// quantityPattern is the loose shape of a quantity: a number, then a suffix.
// The scanner is the actual authority; the pattern is quoted in errors.
const quantityPattern = `^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`

// Reasons a string is not a quantity. ParseQuantity wraps them together with
// the offending input; test for them with errors.Is.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '" + quantityPattern + "'")
	ErrNumeric     = errors.New("the numeric part of the quantity is out of range")
	ErrSuffix      = errors.New("the quantity's suffix is not recognized")
)

// parseError names the input that failed to parse.
type parseError struct {
	input string
	err   error
}

func (e *parseError) Error() string {
	return fmt.Sprintf("invalid quantity %q: %v", e.input, e.err)
}

func (e *parseError) Unwrap() error { return e.err }

// MustParse is ParseQuantity for strings known to be valid, such as
// constants in code and tests; it panics on an invalid one.
func MustParse(str string) Quantity {
	q, err := ParseQuantity(str)
	if err != nil {
		panic(err)
	}
	return q
}

// ParseQuantity parses <signedNumber><suffix>:
//
//	<signedNumber>    ::= [ "+" | "-" ] <number>
//	<number>          ::= <digits> | <digits> "." <digits> | <digits> "." | "." <digits>
//	<suffix>          ::= <binarySI> | <decimalSI> | <decimalExponent>
//	<binarySI>        ::= "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei"     (powers of 1024)
//	<decimalSI>       ::= "n" | "u" | "m" | "" | "k" | "M" | "G" | "T" | "P" | "E"
//	<decimalExponent> ::= ( "e" | "E" ) <signedNumber without a fraction>
//
// The suffix family becomes the quantity's Format. Like upstream, the parser
// is more lenient than the grammar: an empty number reads as 0, so ".", "-",
// "m" and "Ki" are all zero, and "1.G" is accepted. No whitespace is allowed.
//
// Values are exact, except that a non-zero value finer than 1n is rounded away
// from zero to a whole number of nanos ("0.1n" is "1n"), and a BinarySI value
// above 2^63-1 is capped there. Exponents outside the int32 range, and values
// of 10^2147483648 or more, are rejected with ErrNumeric or ErrSuffix.
func ParseQuantity(str string) (Quantity, error) {
	q, err := parse(str)
	if err != nil {
		return Quantity{}, &parseError{input: str, err: err}
	}
	return q, nil
}

// scanned is a quantity string split into its parts.
type scanned struct {
	negative bool
	// num is the integer part without leading zeros, or "0" if that leaves
	// nothing, so it is never empty.
	num string
	// frac is the fraction after ".", possibly empty.
	frac string
	// suffix is everything after the number.
	suffix string
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scan splits str. The suffix is a run of suffix letters, then optionally
// a sign and digits; it is interpreted later.
func scan(str string) (scanned, error) {
	var sc scanned
	i := 0
	if i < len(str) && (str[i] == '+' || str[i] == '-') {
		sc.negative = str[i] == '-'
		i++
	}
	for i < len(str) && str[i] == '0' {
		i++
	}
	start := i
	for i < len(str) && isDigit(str[i]) {
		i++
	}
	sc.num = str[start:i]
	if sc.num == "" {
		sc.num = "0"
	}
	if i < len(str) && str[i] == '.' {
		i++
		start = i
		for i < len(str) && isDigit(str[i]) {
			i++
		}
		sc.frac = str[start:i]
	}
	suffixStart := i
	for i < len(str) && strings.IndexByte("eEinumkKMGTP", str[i]) >= 0 {
		i++
	}
	if i < len(str) && (str[i] == '+' || str[i] == '-') {
		i++
	}
	for i < len(str) && isDigit(str[i]) {
		i++
	}
	if i != len(str) {
		return scanned{}, ErrFormatWrong
	}
	sc.suffix = str[suffixStart:]
	return sc, nil
}

// interpretSuffix returns the suffix's power (of 10, or of 2 for BinarySI)
// and the format it implies.
func interpretSuffix(s string) (exponent int32, format Format, err error) {
	switch s {
	case "":
		return 0, DecimalSI, nil
	case "n":
		return -9, DecimalSI, nil
	case "u":
		return -6, DecimalSI, nil
	case "m":
		return -3, DecimalSI, nil
	case "k":
		return 3, DecimalSI, nil
	case "M":
		return 6, DecimalSI, nil
	case "G":
		return 9, DecimalSI, nil
	case "T":
		return 12, DecimalSI, nil
	case "P":
		return 15, DecimalSI, nil
	case "E":
		return 18, DecimalSI, nil
	case "Ki":
		return 10, BinarySI, nil
	case "Mi":
		return 20, BinarySI, nil
	case "Gi":
		return 30, BinarySI, nil
	case "Ti":
		return 40, BinarySI, nil
	case "Pi":
		return 50, BinarySI, nil
	case "Ei":
		return 60, BinarySI, nil
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, err := strconv.ParseInt(s[1:], 10, 32)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return 0, "", ErrNumeric
			}
			return 0, "", ErrSuffix
		}
		return int32(e), DecimalExponent, nil
	}
	return 0, "", ErrSuffix
}

// parse is ParseQuantity without the error wrapping.
func parse(str string) (Quantity, error) {
	if str == "" {
		return Quantity{}, ErrFormatWrong
	}
	if str == "0" {
		return Quantity{Format: DecimalSI, s: str}, nil
	}
	sc, err := scan(str)
	if err != nil {
		return Quantity{}, err
	}
	exponent, format, err := interpretSuffix(sc.suffix)
	if err != nil {
		return Quantity{}, err
	}

	// Read the digits as an integer mantissa m, with the number m * 10^scale.
	digits := sc.num + sc.frac
	scale := -int64(len(sc.frac))
	var m int64
	var mb *big.Int
	if len(digits) <= 18 {
		for i := 0; i < len(digits); i++ {
			m = m*10 + int64(digits[i]-'0')
		}
	} else {
		mb, _ = new(big.Int).SetString(digits, 10)
	}
	if format == BinarySI {
		if mb == nil && m <= math.MaxInt64>>exponent {
			m <<= exponent
		} else {
			if mb == nil {
				mb = big.NewInt(m)
			}
			mb.Lsh(mb, uint(exponent))
		}
	} else {
		scale += int64(exponent)
	}

	// Keep nano precision at most: a finer non-zero value rounds away from
	// zero, so asking for a sliver of a resource still asks for some.
	if scale < int64(Nano) {
		n := int64(Nano) - scale
		if mb == nil {
			m, _ = divPow10Away(m, n)
		} else {
			mb, _ = bigDivPow10Away(mb, n)
		}
		scale = int64(Nano)
	}

	var q Quantity
	if mb == nil {
		q.v = m
	} else {
		q.fromBig(mb, 0)
	}
	q.scale = int32(scale) // within [-9, MaxInt32] by now
	q.Format = format

	if format == BinarySI && !q.IsZero() {
		// Binary quantities are capped at the largest int64.
		if q.b != nil && q.Cmp(Quantity{v: math.MaxInt64}) > 0 {
			q.v, q.b, q.scale = math.MaxInt64, nil, 0
		}
		// A fraction of one is written in decimal instead.
		if q.Cmp(Quantity{v: 1}) < 0 {
			q.Format = DecimalSI
		}
	}
	if !q.IsZero() && q.exponent() > math.MaxInt32 {
		// Keep every canonical exponent within what the parser accepts.
		return Quantity{}, ErrNumeric
	}
	if sc.negative {
		q.Neg()
	}
	if keepsInput(sc, exponent, format) {
		q.s = str
	}
	return q, nil
}

// keepsInput reports whether upstream's parser stores the input as the
// quantity's string instead of computing the canonical form. It does so on
// its int64 fast path when the digits look canonical, and its test lets
// some non-canonical spellings through: "+1", "01", "1.500", "1E3", "1.G".
// Those are echoed back verbatim by upstream servers, so they are here too.
func keepsInput(sc scanned, exponent int32, format Format) bool {
	shifted := sc.num + sc.frac
	if format == BinarySI {
		// Fast path: no fraction and few enough digits for the suffix.
		if sc.frac != "" || 14-len(sc.num)-int(exponent)*3/10 < 0 {
			return false
		}
		v, err := strconv.ParseInt(shifted, 10, 64)
		return err == nil && v&7 != 0
	}
	scale := int64(exponent) - int64(len(sc.frac))
	if len(shifted) > 18 || scale < int64(Nano) {
		return false
	}
	return scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
}
