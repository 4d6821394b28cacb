package resource

import (
	"math"
	"math/big"
)

// Quantity is an exact fixed-point number: an integer mantissa times a power
// of ten. It is written as <signedNumber><suffix> (see ParseQuantity) and
// serialized in a canonical form that keeps the suffix family the value was
// parsed with (see String).
//
// The zero value is the number 0. Copying a Quantity copies the number: the
// methods never modify memory shared between copies.
type Quantity struct {
	// v is the mantissa when b is nil.
	v int64
	// b is the mantissa when it does not fit in an int64, and nil otherwise.
	// A stored b is never modified; arithmetic replaces it.
	b *big.Int
	// scale is the power of ten: the number is mantissa * 10^scale.
	scale int32
	// s is the text the quantity was parsed from, kept only where upstream
	// emits the input unchanged instead of recomputing the canonical form.
	s string

	// Format selects the suffix family String uses. It may be changed at will.
	Format
}

// Format is the suffix family used to write a quantity.
type Format string

const (
	// DecimalExponent writes a power-of-ten exponent: "12e6", "5e-3".
	DecimalExponent = Format("DecimalExponent")
	// BinarySI writes power-of-1024 suffixes: "12Mi" is 12 * 2^20.
	BinarySI = Format("BinarySI")
	// DecimalSI writes SI suffixes: "12M" is 12 * 10^6, "5m" is 5/1000.
	DecimalSI = Format("DecimalSI")
)

// Scale is a power-of-ten exponent: a value at scale 3 counts thousands and
// one at scale -3 counts thousandths.
type Scale int32

// Named scales.
const (
	Nano  Scale = -9
	Micro Scale = -6
	Milli Scale = -3
	Kilo  Scale = 3
	Mega  Scale = 6
	Giga  Scale = 9
	Tera  Scale = 12
	Peta  Scale = 15
	Exa   Scale = 18
)

// ResourceName names a resource such as "cpu" or "memory".
type ResourceName string

// ResourceList maps resource names to quantities.
type ResourceList map[ResourceName]Quantity

// DeepCopyInto copies every entry of rl into *out, replacing *out.
func (rl ResourceList) DeepCopyInto(out *ResourceList) {
	if rl == nil {
		*out = nil
		return
	}
	c := make(ResourceList, len(rl))
	for name, q := range rl {
		c[name] = q.DeepCopy()
	}
	*out = c
}

// DeepCopy returns an independent copy of rl; nil stays nil.
func (rl ResourceList) DeepCopy() ResourceList {
	var out ResourceList
	rl.DeepCopyInto(&out)
	return out
}

// NewQuantity returns a quantity holding value, written in format.
func NewQuantity(value int64, format Format) *Quantity {
	return &Quantity{v: value, Format: format}
}

// NewMilliQuantity returns a quantity holding value/1000, written in format.
// A BinarySI quantity that is not a whole number, or whose magnitude is below
// 1024, is written as DecimalSI.
func NewMilliQuantity(value int64, format Format) *Quantity {
	return &Quantity{v: value, scale: int32(Milli), Format: format}
}

// NewScaledQuantity returns a DecimalSI quantity holding value * 10^scale.
func NewScaledQuantity(value int64, scale Scale) *Quantity {
	return &Quantity{v: value, scale: int32(scale), Format: DecimalSI}
}

// fromBig stores mantissa m (which the quantity then owns) at scale, using
// the int64 form whenever m fits.
func (q *Quantity) fromBig(m *big.Int, scale int32) {
	if m.IsInt64() {
		q.v, q.b = m.Int64(), nil
	} else {
		q.v, q.b = 0, m
	}
	q.scale = scale
}

// mantissa returns a new big.Int holding the mantissa.
func (q Quantity) mantissa() *big.Int {
	if q.b != nil {
		return new(big.Int).Set(q.b)
	}
	return big.NewInt(q.v)
}

// DeepCopy returns a copy of q that shares no memory with it.
func (q Quantity) DeepCopy() Quantity {
	if q.b != nil {
		q.b = new(big.Int).Set(q.b)
	}
	return q
}

// DeepCopyInto copies q into *out.
func (q *Quantity) DeepCopyInto(out *Quantity) {
	*out = q.DeepCopy()
}

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool {
	return q.b == nil && q.v == 0
}

// Sign returns -1, 0 or 1 as q is negative, zero or positive.
func (q Quantity) Sign() int {
	switch {
	case q.b != nil:
		return q.b.Sign()
	case q.v < 0:
		return -1
	case q.v > 0:
		return 1
	}
	return 0
}

// exponent returns e with 10^e <= |q| < 10^(e+1), for a non-zero q.
func (q Quantity) exponent() int64 {
	if q.b != nil {
		return int64(q.scale) + digitsBig(q.b) - 1
	}
	return int64(q.scale) + digitsInt64(q.v) - 1
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
func (q Quantity) Cmp(y Quantity) int {
	if q.b == nil && y.b == nil {
		a, c := q.v, y.v
		ok := true
		switch {
		case q.scale > y.scale:
			a, ok = mulPow10(a, int64(q.scale)-int64(y.scale))
		case q.scale < y.scale:
			c, ok = mulPow10(c, int64(y.scale)-int64(q.scale))
		}
		if ok {
			switch {
			case a < c:
				return -1
			case a > c:
				return 1
			}
			return 0
		}
	}
	sq, sy := q.Sign(), y.Sign()
	switch {
	case sq < sy:
		return -1
	case sq > sy:
		return 1
	case sq == 0:
		return 0
	}
	// Same sign, both non-zero. The orders of magnitude settle most cases
	// without building a power of ten as large as the scale difference.
	if eq, ey := q.exponent(), y.exponent(); eq != ey {
		if eq > ey {
			return sq
		}
		return -sq
	}
	// Equal magnitudes: the scales differ by less than the digit counts.
	a, c := q.mantissa(), y.mantissa()
	if q.scale > y.scale {
		a.Mul(a, bigPow10(int64(q.scale)-int64(y.scale)))
	} else if q.scale < y.scale {
		c.Mul(c, bigPow10(int64(y.scale)-int64(q.scale)))
	}
	return a.Cmp(c)
}

// Equal reports whether q and y hold the same number, whatever their formats
// or representations. go-cmp uses it to compare quantities.
func (q Quantity) Equal(y Quantity) bool {
	return q.Cmp(y) == 0
}

// Add sets q to q+y. If q is zero it also takes y's format.
func (q *Quantity) Add(y Quantity) {
	q.s = ""
	if q.IsZero() {
		q.Format = y.Format
		q.v, q.b, q.scale = y.v, y.b, y.scale
		return
	}
	q.add(y)
}

// Sub sets q to q-y. If q is zero it also takes y's format.
func (q *Quantity) Sub(y Quantity) {
	q.s = ""
	if q.IsZero() {
		q.Format = y.Format
	}
	y.Neg()
	q.add(y)
}

// add sets q to q+y, aligning the two scales, without touching the format.
func (q *Quantity) add(y Quantity) {
	if y.IsZero() {
		return
	}
	if q.IsZero() {
		q.v, q.b, q.scale = y.v, y.b, y.scale
		return
	}
	if q.b == nil && y.b == nil {
		a, c, scale := q.v, y.v, q.scale
		ok := true
		switch {
		case q.scale > y.scale:
			a, ok = mulPow10(a, int64(q.scale)-int64(y.scale))
			scale = y.scale
		case q.scale < y.scale:
			c, ok = mulPow10(c, int64(y.scale)-int64(q.scale))
		}
		if ok {
			if sum, ok := addInt64(a, c); ok {
				q.v, q.scale = sum, scale
				return
			}
		}
	}
	a, c, scale := q.mantissa(), y.mantissa(), q.scale
	switch {
	case q.scale > y.scale:
		a.Mul(a, bigPow10(int64(q.scale)-int64(y.scale)))
		scale = y.scale
	case q.scale < y.scale:
		c.Mul(c, bigPow10(int64(y.scale)-int64(q.scale)))
	}
	q.fromBig(a.Add(a, c), scale)
}

// Neg sets q to -q.
func (q *Quantity) Neg() {
	q.s = ""
	switch {
	case q.b != nil:
		q.fromBig(new(big.Int).Neg(q.b), q.scale)
	case q.v == math.MinInt64:
		q.fromBig(new(big.Int).Neg(big.NewInt(q.v)), q.scale)
	default:
		q.v = -q.v
	}
}

// Mul sets q to q*y exactly. It reports whether the resulting mantissa still
// fits in an int64, as upstream's Mul does.
func (q *Quantity) Mul(y int64) bool {
	q.s = ""
	if q.b == nil {
		if r, ok := mulInt64(q.v, y); ok {
			q.v = r
			if r == 0 {
				q.scale = 0
			}
			return true
		}
	}
	q.fromBig(new(big.Int).Mul(q.mantissa(), big.NewInt(y)), q.scale)
	return q.b == nil
}

// Set sets q to value, keeping its format.
func (q *Quantity) Set(value int64) {
	q.SetScaled(value, 0)
}

// SetMilli sets q to value/1000, keeping its format.
func (q *Quantity) SetMilli(value int64) {
	q.SetScaled(value, Milli)
}

// SetScaled sets q to value * 10^scale, keeping its format.
func (q *Quantity) SetScaled(value int64, scale Scale) {
	q.s = ""
	q.v, q.b, q.scale = value, nil, int32(scale)
}

// RoundUp rounds q away from zero to a multiple of 10^scale, if it has finer
// digits, and reports whether the value was unchanged.
func (q *Quantity) RoundUp(scale Scale) bool {
	if q.scale >= int32(scale) {
		return true
	}
	q.s = ""
	n := int64(scale) - int64(q.scale)
	var exact bool
	if q.b == nil {
		q.v, exact = divPow10Away(q.v, n)
	} else {
		var m *big.Int
		m, exact = bigDivPow10Away(q.b, n)
		q.fromBig(m, 0)
	}
	q.scale = int32(scale)
	return exact
}

// Value returns q rounded away from zero to an integer. It saturates at
// math.MaxInt64 or math.MinInt64 when the result does not fit.
func (q Quantity) Value() int64 {
	return q.ScaledValue(0)
}

// MilliValue returns q*1000 rounded away from zero to an integer, saturating
// as Value does.
func (q Quantity) MilliValue() int64 {
	return q.ScaledValue(Milli)
}

// ScaledValue returns q / 10^scale rounded away from zero to an integer,
// saturating as Value does: MustParse("1.5k").ScaledValue(Kilo) is 2.
func (q Quantity) ScaledValue(scale Scale) int64 {
	sign := q.Sign()
	if sign == 0 {
		return 0
	}
	saturated := int64(math.MaxInt64)
	if sign < 0 {
		saturated = math.MinInt64
	}
	d := int64(q.scale) - int64(scale)
	if q.b == nil {
		if d >= 0 {
			if r, ok := mulPow10(q.v, d); ok {
				return r
			}
			return saturated
		}
		r, _ := divPow10Away(q.v, -d)
		return r
	}
	if d >= 0 {
		return saturated // |mantissa| alone exceeds the int64 range
	}
	r, _ := bigDivPow10Away(q.b, -d)
	if !r.IsInt64() {
		return saturated
	}
	return r.Int64()
}

// AsInt64 returns q as an int64 when it is a whole number in the int64 range.
func (q Quantity) AsInt64() (int64, bool) {
	if q.IsZero() {
		return 0, true
	}
	if q.b == nil {
		if q.scale >= 0 {
			if r, ok := mulPow10(q.v, int64(q.scale)); ok {
				return r, true
			}
			return 0, false
		}
		if r, exact := divPow10Away(q.v, -int64(q.scale)); exact {
			return r, true
		}
		return 0, false
	}
	if q.scale >= 0 {
		return 0, false
	}
	r, exact := bigDivPow10Away(q.b, -int64(q.scale))
	if !exact || !r.IsInt64() {
		return 0, false
	}
	return r.Int64(), true
}

// AsApproximateFloat64 returns the float64 nearest q, or close to it; values
// beyond the float64 range give ±Inf.
func (q Quantity) AsApproximateFloat64() float64 {
	if q.b == nil {
		if q.scale == 0 {
			return float64(q.v)
		}
		return float64(q.v) * math.Pow10(int(q.scale))
	}
	f, _ := new(big.Float).SetInt(q.b).Float64()
	if math.IsInf(f, 0) && q.scale < 0 {
		// The mantissa alone overflows: let the big.Float scale it down.
		bf := new(big.Float).SetInt(q.b)
		bf.Quo(bf, new(big.Float).SetInt(bigPow10(-int64(q.scale))))
		f, _ = bf.Float64()
		return f
	}
	return f * math.Pow10(int(q.scale))
}
