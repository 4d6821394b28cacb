package resource

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// canonical computes q's canonical form, ignoring any kept input string.
func canonical(q Quantity) string {
	return string(q.appendCanonical(nil))
}

func TestParseString(t *testing.T) {
	tests := []struct {
		in     string
		want   string // String()
		canon  string // canonical form; "" means the same as want
		format Format
	}{
		// Zero, in every spelling.
		{"0", "0", "", DecimalSI},
		{"-0", "0", "", DecimalSI},
		{"0.0", "0", "", DecimalSI},
		{"0m", "0", "", DecimalSI},
		{"0Ki", "0", "", BinarySI},
		{"0e3", "0", "", DecimalExponent},
		{"000", "0", "", DecimalSI},

		// Decimal SI.
		{"1", "1", "", DecimalSI},
		{"100m", "100m", "", DecimalSI},
		{"1000m", "1", "", DecimalSI},
		{"10000m", "10", "", DecimalSI},
		{"1000", "1k", "", DecimalSI},
		{"1500", "1500", "", DecimalSI},
		{"1000000000", "1G", "", DecimalSI},
		{"1G", "1G", "", DecimalSI},
		{"1000M", "1G", "", DecimalSI},
		{"50k", "50k", "", DecimalSI},
		{"1E", "1E", "", DecimalSI},
		{"1000E", "1e21", "", DecimalSI}, // no SI suffix past E
		{"1n", "1n", "", DecimalSI},
		{"1000n", "1u", "", DecimalSI},
		{"0.1", "100m", "", DecimalSI},
		{"1.0", "1", "", DecimalSI},
		{"0.5", "500m", "", DecimalSI},
		{".5", "500m", "", DecimalSI},
		{"1.5", "1500m", "", DecimalSI},
		{"1.44", "1440m", "", DecimalSI},
		{"0.000001", "1u", "", DecimalSI},
		{"1.000", "1", "", DecimalSI},
		{"1.5k", "1500", "", DecimalSI},
		{"123456789012345678901234", "123456789012345678901234", "", DecimalSI},
		{"123456789012345678901000", "123456789012345678901k", "", DecimalSI},

		// Negative values.
		{"-1", "-1", "", DecimalSI},
		{"-1.5", "-1500m", "", DecimalSI},
		{"-100m", "-100m", "", DecimalSI},
		{"-1000m", "-1", "", DecimalSI},
		{"-1.5Gi", "-1536Mi", "", BinarySI},
		{"-1Ki", "-1Ki", "", BinarySI},
		{"-1e3", "-1e3", "", DecimalExponent},

		// Binary SI.
		{"1Ki", "1Ki", "", BinarySI},
		{"1Gi", "1Gi", "", BinarySI},
		{"1024Ki", "1Mi", "", BinarySI},
		{"1536Ki", "1536Ki", "", BinarySI},
		{"1.5Gi", "1536Mi", "", BinarySI},
		{"8Ki", "8Ki", "", BinarySI},
		{"1024Mi", "1Gi", "", BinarySI},
		{"1.1Ki", "1126400m", "", BinarySI}, // not whole: decimal
		{".001Ki", "1024m", "", BinarySI},
		{"0.5Ki", "512", "", BinarySI}, // below 1024: decimal
		{"1Ei", "1Ei", "", BinarySI},
		{"9Ei", "9223372036854775807", "", BinarySI}, // capped at MaxInt64
		{"0.000000000001Ki", "2n", "", DecimalSI},    // rounds up, below one

		// Decimal exponent.
		{"1e3", "1e3", "", DecimalExponent},
		{"1e6", "1e6", "", DecimalExponent},
		{"12e2", "1200", "", DecimalExponent},
		{"1.2e3", "1200", "", DecimalExponent},
		{"1e-3", "1e-3", "", DecimalExponent},
		{"1.3E+6", "1300e3", "", DecimalExponent},
		{"10e3", "10e3", "", DecimalExponent},
		{"1000e3", "1e6", "", DecimalExponent},
		{"1e0", "1e0", "1", DecimalExponent},
		{"0.5e0", "500e-3", "", DecimalExponent},

		// Finer than a nano rounds away from zero.
		{"1.0001m", "1000100n", "", DecimalSI},
		{"0.9n", "1n", "", DecimalSI},
		{"3.001n", "4n", "", DecimalSI},
		{"0.0000000001", "1n", "", DecimalSI},
		{"-0.0000000001", "-1n", "", DecimalSI},
		{"0.00000012345", "124n", "", DecimalSI},
		{"1.1E-9", "2e-9", "", DecimalExponent},
		{"1e-2147483648", "1e-9", "", DecimalExponent},

		// Inputs upstream echoes back verbatim although they are not canonical.
		{"+1", "+1", "1", DecimalSI},
		{"01", "01", "1", DecimalSI},
		{"1.500", "1.500", "1500m", DecimalSI},
		{"1.001", "1.001", "1001m", DecimalSI},
		{"100.035k", "100.035k", "100035", DecimalSI},
		{"1E3", "1E3", "1e3", DecimalExponent},
		{"1e+3", "1e+3", "1e3", DecimalExponent},
		{"1.G", "1.G", "1G", DecimalSI},
		{"1.", "1.", "1", DecimalSI},
		{"+1Ki", "+1Ki", "1Ki", BinarySI},

		// Upstream reads an empty number as zero.
		{".", "0", "", DecimalSI},
		{"+", "0", "", DecimalSI},
		{"-.", "0", "", DecimalSI},
		{"m", "0", "", DecimalSI},
		{"Ki", "0", "", BinarySI},
	}
	for _, tt := range tests {
		q, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("ParseQuantity(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if got := q.CanonicalString(); got != tt.want {
			t.Errorf("ParseQuantity(%q).CanonicalString() = %q, want %q", tt.in, got, tt.want)
		}
		wantCanon := tt.canon
		if wantCanon == "" {
			wantCanon = tt.want
		}
		if got := canonical(q); got != wantCanon {
			t.Errorf("canonical(ParseQuantity(%q)) = %q, want %q", tt.in, got, wantCanon)
		}
		if q.Format != tt.format {
			t.Errorf("ParseQuantity(%q).Format = %s, want %s", tt.in, q.Format, tt.format)
		}
		// Arithmetic drops the kept input and emits the canonical form.
		sum := q
		sum.Add(Quantity{})
		if got := sum.String(); got != wantCanon {
			t.Errorf("ParseQuantity(%q) + 0 = %q, want %q", tt.in, got, wantCanon)
		}
		// The output parses back to the same number.
		for _, out := range []string{q.String(), wantCanon} {
			back, err := ParseQuantity(out)
			if err != nil {
				t.Errorf("%q: reparsing %q: %v", tt.in, out, err)
			} else if back.Cmp(q) != 0 {
				t.Errorf("%q: %q reparses to %s", tt.in, out, back)
			}
		}
	}
}

func TestParseValue(t *testing.T) {
	big1e24, _ := new(big.Int).SetString("1000000000000000000000000", 10)
	tests := []struct {
		in   string
		want Quantity
	}{
		{"1", *NewScaledQuantity(1, 0)},
		{"5n", *NewScaledQuantity(5, Nano)},
		{"50k", *NewScaledQuantity(5, 4)},
		{"1.2e3", *NewScaledQuantity(1200, 0)},
		{"10.035M", *NewScaledQuantity(10035, 3)},
		{"7Mi", *NewQuantity(7<<20, BinarySI)},
		{"3Ei", *NewQuantity(3<<60, BinarySI)},
		{"0.05Gi", *NewScaledQuantity(536870912, -1)},
		{"100.035Ki", *NewScaledQuantity(10243584, -2)},
		{"0.00000012354", *NewScaledQuantity(124, Nano)},
		{"9223372036854775807Ki", *NewQuantity(math.MaxInt64, BinarySI)},
		{"-9223372036854775807Ki", *NewQuantity(-math.MaxInt64, BinarySI)},
		{"1e24", Quantity{b: big1e24}},
		{"1000000000000000000000000", Quantity{b: big1e24}},
		{"-0.5", *NewMilliQuantity(-500, DecimalSI)},
	}
	for _, tt := range tests {
		q, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.in, err)
			continue
		}
		if q.Cmp(tt.want) != 0 {
			t.Errorf("ParseQuantity(%q) = %s, want %s", tt.in, canonical(q), canonical(tt.want))
		}
	}
}

func TestParseInvalid(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrFormatWrong},
		{"1.2.3", ErrFormatWrong},
		{"1Zi", ErrFormatWrong},
		{"abc", ErrFormatWrong},
		{"1 Gi", ErrFormatWrong},
		{" 1", ErrFormatWrong},
		{"1 ", ErrFormatWrong},
		{"1.1.M", ErrFormatWrong},
		{"1+1.0M", ErrFormatWrong},
		{"0.1am", ErrFormatWrong},
		{"1e3e3", ErrFormatWrong},
		{"--1", ErrSuffix},
		{"0.1mi", ErrSuffix},
		{".5i", ErrSuffix},
		{"1i", ErrSuffix},
		{"-3.01i", ErrSuffix},
		{"-3.01e-", ErrSuffix},
		{"1e", ErrSuffix},
		{"1Kii", ErrSuffix},
		{"1ki", ErrSuffix},
		{"1KI", ErrFormatWrong},
		{"1mk", ErrSuffix},
		{"1e2147483648", ErrNumeric},
		{"1e99999999999999999999", ErrNumeric},
		{"1000000e2147483647", ErrNumeric},
	}
	for _, tt := range tests {
		q, err := ParseQuantity(tt.in)
		if err == nil {
			t.Errorf("ParseQuantity(%q) = %s, want an error", tt.in, q)
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseQuantity(%q) error %v, want %v", tt.in, err, tt.want)
		}
		if want := `"` + tt.in + `"`; !strings.Contains(err.Error(), want) {
			t.Errorf("ParseQuantity(%q) error %q does not name the input", tt.in, err)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("MustParse(\"abc\") did not panic")
		}
		if err, ok := r.(error); !ok || !strings.Contains(err.Error(), `"abc"`) {
			t.Errorf("panic value %v does not name the input", r)
		}
	}()
	MustParse("abc")
}

func TestConstructors(t *testing.T) {
	tests := []struct {
		q    *Quantity
		want string
	}{
		{NewQuantity(0, DecimalSI), "0"},
		{NewQuantity(1, DecimalSI), "1"},
		{NewQuantity(1000, DecimalSI), "1k"},
		{NewQuantity(1234000, DecimalSI), "1234k"},
		{NewQuantity(-5000, DecimalSI), "-5k"},
		{NewQuantity(1024, BinarySI), "1Ki"},
		{NewQuantity(1023, BinarySI), "1023"},
		{NewQuantity(-2048, BinarySI), "-2Ki"},
		{NewQuantity(1<<20, BinarySI), "1Mi"},
		{NewQuantity(1000000, DecimalExponent), "1e6"},
		{NewQuantity(1000000, "unknown"), "1e6"},
		{NewQuantity(math.MaxInt64, DecimalSI), "9223372036854775807"},
		{NewQuantity(math.MinInt64, BinarySI), "-8Ei"},
		{NewMilliQuantity(1, DecimalSI), "1m"},
		{NewMilliQuantity(1000, DecimalSI), "1"},
		{NewMilliQuantity(1024, BinarySI), "1024m"},
		{NewMilliQuantity(1000000, "unknown"), "1e3"},
		{NewMilliQuantity(1024*1024, BinarySI), "1048576m"},
		{NewMilliQuantity(math.MinInt64, DecimalSI), "-9223372036854775808m"},
		{NewScaledQuantity(1, Nano), "1n"},
		{NewScaledQuantity(1000, Nano), "1u"},
		{NewScaledQuantity(1000, Milli), "1"},
		{NewScaledQuantity(1, -12), "1e-12"},
		{NewScaledQuantity(2, 21), "2e21"},
		{NewScaledQuantity(20, 20), "2e21"},
		{NewScaledQuantity(math.MaxInt64, 1), "92233720368547758070"},
		{NewScaledQuantity(math.MaxInt64, -1), "922337203685477580700m"},
		{&Quantity{}, "0"},
	}
	for _, tt := range tests {
		if got := tt.q.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", *tt.q, got, tt.want)
		}
		if tt.want == "-8Ei" || tt.want == "1e-12" {
			continue // parsing caps BinarySI at MaxInt64 and rounds to nanos
		}
		back, err := ParseQuantity(tt.q.String())
		if err != nil {
			t.Errorf("reparsing %q: %v", tt.q.String(), err)
		} else if back.Cmp(*tt.q) != 0 {
			t.Errorf("%q reparses to %s", tt.q.String(), back)
		}
	}
}

func TestSetters(t *testing.T) {
	q := MustParse("1.500")
	q.Set(2048)
	if got := q.String(); got != "2048" {
		t.Errorf("Set(2048) on DecimalSI = %q", got)
	}
	q = MustParse("1Ki")
	q.SetMilli(1500)
	if got := q.String(); got != "1500m" {
		t.Errorf("SetMilli(1500) = %q", got)
	}
	q.SetScaled(3, Giga)
	if got := q.String(); got != "3000000000" { // BinarySI, not a power of 1024
		t.Errorf("SetScaled(3, Giga) on BinarySI = %q", got)
	}
}

func TestValue(t *testing.T) {
	tests := []struct {
		in          string
		value, mill int64
	}{
		{"0", 0, 0},
		{"1", 1, 1000},
		{"100m", 1, 100},
		{"1.5", 2, 1500},
		{"-1.5", -2, -1500},
		{"-100m", -1, -100},
		{"1n", 1, 1},
		{"-1n", -1, -1},
		{"1.0001m", 1, 2},
		{"1Gi", 1 << 30, 1000 << 30},
		{"1.1Ki", 1127, 1126400},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64},
		{"9223372036854775808", math.MaxInt64, math.MaxInt64},
		{"-9223372036854775808", math.MinInt64, math.MinInt64},
		{"-9223372036854775809", math.MinInt64, math.MinInt64},
		{"1e30", math.MaxInt64, math.MaxInt64},
		{"-1e30", math.MinInt64, math.MinInt64},
		{"1e2147483647", math.MaxInt64, math.MaxInt64},
		{"9223372036854775807.5", math.MaxInt64, math.MaxInt64},
		{"1234567890123456789012m", 1234567890123456790, math.MaxInt64},
		{"-1234567890123456789012m", -1234567890123456790, math.MinInt64},
	}
	for _, tt := range tests {
		q := MustParse(tt.in)
		if got := q.Value(); got != tt.value {
			t.Errorf("%q.Value() = %d, want %d", tt.in, got, tt.value)
		}
		if got := q.MilliValue(); got != tt.mill {
			t.Errorf("%q.MilliValue() = %d, want %d", tt.in, got, tt.mill)
		}
	}
}

func TestScaledValue(t *testing.T) {
	tests := []struct {
		q     Quantity
		scale Scale
		want  int64
	}{
		{*NewScaledQuantity(1, Nano), Nano, 1},
		{*NewScaledQuantity(1, Nano), 0, 1},
		{*NewScaledQuantity(1, 0), Nano, 1000000000},
		{*NewScaledQuantity(1, 2), -2, 10000},
		{MustParse("1.5k"), Kilo, 2},
		{MustParse("-1.5k"), Kilo, -2},
		{MustParse("1Gi"), Giga, 2},
		{MustParse("1e-3"), Exa, 1},
		{MustParse("0"), Exa, 0},
		{*NewScaledQuantity(1, math.MinInt32), math.MaxInt32, 1},
		{*NewScaledQuantity(-1, math.MaxInt32), math.MinInt32, math.MinInt64},
	}
	for _, tt := range tests {
		if got := tt.q.ScaledValue(tt.scale); got != tt.want {
			t.Errorf("%s.ScaledValue(%d) = %d, want %d", tt.q, tt.scale, got, tt.want)
		}
	}
}

func TestAsInt64(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"12", 12, true},
		{"1000m", 1, true},
		{"1.5", 0, false},
		{"-3k", -3000, true},
		{"1Ei", 1 << 60, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775808", math.MinInt64, true},
		{"92233720368547758070000m", 0, false},
		{"9223372036854775807000m", math.MaxInt64, true},
		{"1e30", 0, false},
	}
	for _, tt := range tests {
		got, ok := MustParse(tt.in).AsInt64()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q.AsInt64() = %d, %t, want %d, %t", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRoundUp(t *testing.T) {
	tests := []struct {
		in    string
		scale Scale
		want  string
		exact bool
	}{
		{"9.01", -3, "9010m", true},
		{"9.01", -2, "9010m", true},
		{"9.01", -1, "9100m", false},
		{"9.01", 0, "10", false},
		{"9.01", 1, "10", false},
		{"9.01", 2, "100", false},
		{"-9.01", 0, "-10", false},
		{"-9.01", 2, "-100", false},
		{"1n", 30, "1e30", false},
		{"123456789012345678901234.5", 0, "123456789012345678901235", false},
		{"123456789012345678901234.5", 30, "1e30", false},
		{"1k", 0, "1k", true},
	}
	for _, tt := range tests {
		q := MustParse(tt.in)
		if exact := q.RoundUp(tt.scale); exact != tt.exact {
			t.Errorf("%q.RoundUp(%d) exact = %t, want %t", tt.in, tt.scale, exact, tt.exact)
		}
		if got := q.String(); got != tt.want {
			t.Errorf("%q.RoundUp(%d) = %q, want %q", tt.in, tt.scale, got, tt.want)
		}
	}
}

func TestCmp(t *testing.T) {
	tests := []struct {
		x, y string
		want int
	}{
		{"0", "0", 0},
		{"0", "0Ki", 0},
		{"0", "-0", 0},
		{"100m", "50m", 1},
		{"50m", "100m", -1},
		{"1", "1000m", 0},
		{"1k", "1e3", 0},
		{"1Ki", "1024", 0},
		{"1Ki", "1k", 1},
		{"10000T", "100Gi", 1},
		{"-1", "1", -1},
		{"-1", "-2", 1},
		{"-1n", "0", -1},
		{"1n", "0", 1},
		{"1e2147483647", "1", 1},
		{"-1e2147483647", "1n", -1},
		{"1e2147483647", "10e2147483646", 0},
		{"1e2147483647", "11e2147483646", -1},
		{"9223372036854775808", "9223372036854775807", 1},
		{"9223372036854775808", "9223372036854775.808k", 0},
		{"-9223372036854775809", "-9223372036854775808", -1},
		{"92233720368547758070", "9223372036854775807e1", 0},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
	}
	for _, tt := range tests {
		x, y := MustParse(tt.x), MustParse(tt.y)
		if got := x.Cmp(y); got != tt.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.x, tt.y, got, tt.want)
		}
		if got := y.Cmp(x); got != -tt.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.y, tt.x, got, -tt.want)
		}
		if got := x.Equal(y); got != (tt.want == 0) {
			t.Errorf("Equal(%s, %s) = %t", tt.x, tt.y, got)
		}
	}
}

func TestAddSub(t *testing.T) {
	tests := []struct {
		x, y      string
		sum, diff string
	}{
		{"1", "1", "2", "0"},
		{"100m", "1", "1100m", "-900m"},
		{"1Gi", "512Mi", "1536Mi", "512Mi"},
		{"1Gi", "1G", "2073741824", "73741824"}, // keeps x's BinarySI format
		{"1G", "1Gi", "2073741824", "-73741824"},
		{"1e3", "1", "1001", "999"},
		{"0", "100m", "100m", "-100m"}, // zero takes y's format
		{"0", "1Gi", "1Gi", "-1Gi"},    // ... including BinarySI
		{"0Ki", "1e3", "1e3", "-1e3"},  // ... and DecimalExponent
		{"100m", "0", "100m", "100m"},  // y zero keeps x
		{"1Gi", "0", "1Gi", "1Gi"},     // y zero keeps x
		{"1.5", "-1.5", "0", "3"},      // sum to zero
		{"1n", "1E", "1000000000000000000000000001n", "-999999999999999999999999999n"},
		{"9223372036854775807", "1", "9223372036854775808", "9223372036854775806"},
		{"-9223372036854775808", "1", "-9223372036854775807", "-9223372036854775809"},
		{"-9223372036854775808", "-9223372036854775808", "-18446744073709551616", "0"},
		{"1e2147483647", "-1e2147483647", "0", "20e2147483646"},
	}
	for _, tt := range tests {
		x, y := MustParse(tt.x), MustParse(tt.y)
		sum := x
		sum.Add(y)
		if got := sum.String(); got != tt.sum {
			t.Errorf("%s + %s = %q, want %q", tt.x, tt.y, got, tt.sum)
		}
		diff := x
		diff.Sub(y)
		if got := diff.String(); got != tt.diff {
			t.Errorf("%s - %s = %q, want %q", tt.x, tt.y, got, tt.diff)
		}
		// The operands are untouched.
		if x.String() != MustParse(tt.x).String() || y.String() != MustParse(tt.y).String() {
			t.Errorf("%s, %s: operands changed to %s, %s", tt.x, tt.y, x, y)
		}
	}
}

func TestNeg(t *testing.T) {
	tests := []struct {
		q    Quantity
		want string
	}{
		{Quantity{}, "0"},
		{MustParse("1.5"), "-1500m"},
		{MustParse("-1Ki"), "1Ki"},
		{*NewQuantity(math.MinInt64, DecimalSI), "9223372036854775808"},
		{*NewScaledQuantity(math.MinInt64, Milli), "9223372036854775808m"},
		{MustParse("-9223372036854775809"), "9223372036854775809"},
	}
	for _, tt := range tests {
		orig := tt.q.DeepCopy()
		q := tt.q
		q.Neg()
		if got := q.String(); got != tt.want {
			t.Errorf("-(%s) = %q, want %q", orig, got, tt.want)
		}
		q.Neg()
		if q.Cmp(orig) != 0 || tt.q.Cmp(orig) != 0 {
			t.Errorf("double negation of %s gave %s (source now %s)", orig, q, tt.q)
		}
	}
}

func TestMul(t *testing.T) {
	q := MustParse("1.5Gi")
	if !q.Mul(2) || q.String() != "3Gi" {
		t.Errorf("1.5Gi * 2 = %s", q)
	}
	q = *NewQuantity(math.MaxInt64, DecimalSI)
	if q.Mul(10) || q.String() != "92233720368547758070" {
		t.Errorf("MaxInt64 * 10 = %s", q)
	}
	q = MustParse("5k")
	if !q.Mul(0) || !q.IsZero() || q.String() != "0" {
		t.Errorf("5k * 0 = %s", q)
	}
}

func TestAddSubCancel(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	q := Quantity{Format: DecimalSI}
	var terms []Quantity
	for i := 0; i < 300; i++ {
		v := rnd.Int63()
		if rnd.Intn(2) == 0 {
			v = -v
		}
		term := *NewScaledQuantity(v, Scale(rnd.Intn(41)-20))
		terms = append(terms, term)
		q.Add(term)
	}
	for _, term := range terms {
		q.Sub(term)
	}
	if !q.IsZero() || q.Sign() != 0 || q.String() != "0" {
		t.Errorf("adding and subtracting the same terms left %s", q)
	}
}

func TestSignIsZero(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "-0": 0, "1n": 1, "-1n": -1, "1e30": 1, "-1e30": -1} {
		q := MustParse(in)
		if got := q.Sign(); got != want {
			t.Errorf("%q.Sign() = %d, want %d", in, got, want)
		}
		if got := q.IsZero(); got != (want == 0) {
			t.Errorf("%q.IsZero() = %t", in, got)
		}
	}
}

func TestDeepCopy(t *testing.T) {
	q := MustParse("123456789012345678901234567890")
	c := q.DeepCopy()
	if c.b == q.b {
		t.Fatal("DeepCopy shares the big mantissa")
	}
	c.Add(MustParse("1"))
	if q.String() != "123456789012345678901234567890" {
		t.Errorf("changing the copy changed the source to %s", q)
	}
	var into Quantity
	q.DeepCopyInto(&into)
	if into.Cmp(q) != 0 || into.String() != q.String() {
		t.Errorf("DeepCopyInto gave %s", into)
	}

	rl := ResourceList{"cpu": MustParse("100m"), "memory": MustParse("1Gi")}
	cp := rl.DeepCopy()
	cp["cpu"] = MustParse("2")
	if got := rl["cpu"]; got.String() != "100m" {
		t.Errorf("ResourceList copy aliases the source: %s", got.String())
	}
	if got := cp["memory"]; got.String() != "1Gi" {
		t.Errorf("ResourceList copy lost memory: %s", got.String())
	}
	if ResourceList(nil).DeepCopy() != nil {
		t.Error("nil ResourceList copied to non-nil")
	}
}

func TestAsApproximateFloat64(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"0", 0},
		{"1.5", 1.5},
		{"-2Ki", -2048},
		{"1.1Ki", 1126.4},
		{"100m", 0.1},
		{"1e30", 1e30},
		{"123456789012345678901234567890e-10", 12345678901234567890},
		{"1e400", math.Inf(1)},
		{"-1e400", math.Inf(-1)},
	}
	for _, tt := range tests {
		got := MustParse(tt.in).AsApproximateFloat64()
		if got != tt.want && math.Abs(got-tt.want) > math.Abs(tt.want)*1e-15 {
			t.Errorf("%q.AsApproximateFloat64() = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestMarshalJSON(t *testing.T) {
	tests := []struct {
		q    Quantity
		want string
	}{
		{Quantity{}, `"0"`},
		{MustParse("1.5Gi"), `"1536Mi"`},
		{MustParse("100m"), `"100m"`},
		{MustParse("+1"), `"+1"`},
		{*NewQuantity(1000, DecimalSI), `"1k"`},
		{MustParse("-123456789012345678901234567890"), `"-123456789012345678901234567890"`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.q)
		if err != nil || string(got) != tt.want {
			t.Errorf("json.Marshal(%s) = %s, %v, want %s", tt.q, got, err, tt.want)
		}
		got, err = json.Marshal(&tt.q)
		if err != nil || string(got) != tt.want {
			t.Errorf("json.Marshal(&%s) = %s, %v, want %s", tt.q, got, err, tt.want)
		}
	}
}

func TestUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string // String() after decoding
	}{
		{`"1Gi"`, "1Gi"},
		{`"1.5"`, "1500m"},
		{`" 1 "`, "1"},
		{`"\u0031Ki"`, "1Ki"},
		{`1`, "1"},
		{`-1`, "-1"},
		{`1.5`, "1500m"},
		{`1e3`, "1e3"},
		{`1E+3`, "1E+3"},
		{`0.000001`, "1u"},
		{`12345678901234567890123`, "12345678901234567890123"},
		{`null`, "0"},
	}
	for _, tt := range tests {
		q := MustParse("7Ki")
		if err := json.Unmarshal([]byte(tt.in), &q); err != nil {
			t.Errorf("json.Unmarshal(%s): %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("json.Unmarshal(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// null resets the format too.
	q := MustParse("7Ki")
	if err := json.Unmarshal([]byte("null"), &q); err != nil || q.Format != "" || !q.IsZero() {
		t.Errorf("null left %#v, %v", q, err)
	}

	for _, in := range []string{`""`, `"abc"`, `"1 Gi"`, `true`, `{}`, `[]`, `"1.2.3"`} {
		var q Quantity
		if err := json.Unmarshal([]byte(in), &q); err == nil {
			t.Errorf("json.Unmarshal(%s) = %s, want an error", in, q)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	type holder struct {
		Q   Quantity     `json:"q"`
		P   *Quantity    `json:"p,omitempty"`
		Res ResourceList `json:"res,omitempty"`
	}
	in := `{"q":"1.5Gi","p":0.25,"res":{"cpu":"100m","memory":"1024Mi","pods":110,"big":"1e30"}}`
	var h holder
	if err := json.Unmarshal([]byte(in), &h); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"q":"1536Mi","p":"250m","res":{"big":"1e30","cpu":"100m","memory":"1Gi","pods":"110"}}`
	if string(out) != want {
		t.Errorf("round trip:\n got %s\nwant %s", out, want)
	}
	var again holder
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatal(err)
	}
	if !again.Q.Equal(h.Q) || !again.P.Equal(*h.P) || len(again.Res) != len(h.Res) {
		t.Errorf("second decode differs: %+v vs %+v", again, h)
	}
	for k, v := range h.Res {
		if !again.Res[k].Equal(v) {
			t.Errorf("res[%s]: %s vs %s", k, again.Res[k], v)
		}
	}
}

func TestToUnstructured(t *testing.T) {
	if got := MustParse("1024Mi").ToUnstructured(); got != "1Gi" {
		t.Errorf("ToUnstructured() = %#v", got)
	}
}

func TestSmallValuesDoNotAllocate(t *testing.T) {
	a, b := MustParse("100m"), MustParse("1Gi")
	allocs := testing.AllocsPerRun(100, func() {
		q, err := ParseQuantity("1500m")
		if err != nil {
			t.Fatal(err)
		}
		q.Add(a)
		q.Sub(b)
		q.Neg()
		_ = q.Cmp(b)
		_ = q.Value() + q.MilliValue()
	})
	if allocs != 0 {
		t.Errorf("parse and arithmetic on small values allocated %v times", allocs)
	}
	allocs = testing.AllocsPerRun(100, func() {
		_ = canonical(b) // one slice, one string
	})
	if allocs > 2 {
		t.Errorf("canonical form of a small value allocated %v times", allocs)
	}
}
