package resource

import (
	"math"
	"math/big"
	"math/bits"
)

// int64Pow10[n] is 10^n for every n whose power fits in an int64.
var int64Pow10 = [...]int64{
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000,
	1000000000000000, 10000000000000000, 100000000000000000, 1000000000000000000,
}

var (
	bigTen      = big.NewInt(10)
	big1024     = big.NewInt(1024)
	bigMaxInt64 = big.NewInt(math.MaxInt64)
)

// bigPow10 returns a new big.Int holding 10^n, n >= 0.
func bigPow10(n int64) *big.Int {
	if n < int64(len(int64Pow10)) {
		return big.NewInt(int64Pow10[n])
	}
	return new(big.Int).Exp(bigTen, big.NewInt(n), nil)
}

// mulPow10 returns v*10^n and whether it fits in an int64, n >= 0.
func mulPow10(v int64, n int64) (int64, bool) {
	if v == 0 {
		return 0, true
	}
	if n >= int64(len(int64Pow10)) {
		return 0, false
	}
	return mulInt64(v, int64Pow10[n])
}

// mulInt64 returns a*b and whether the product fits in an int64.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(absUint64(a), absUint64(b))
	neg := (a < 0) != (b < 0)
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true // wraps to MinInt64 for lo == 1<<63, which is exact
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// addInt64 returns a+b and whether the sum fits in an int64.
func addInt64(a, b int64) (int64, bool) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, false
	}
	return c, true
}

func absUint64(v int64) uint64 {
	if v < 0 {
		return uint64(-v) // also correct for MinInt64: the bit pattern is 1<<63
	}
	return uint64(v)
}

// digitsInt64 counts the decimal digits of |v|; zero has one digit.
func digitsInt64(v int64) int64 {
	u := absUint64(v)
	n := int64(1)
	for u >= 10 {
		u /= 10
		n++
	}
	return n
}

// digitsBig counts the decimal digits of |b|.
func digitsBig(b *big.Int) int64 {
	if b.IsInt64() {
		return digitsInt64(b.Int64())
	}
	// A decimal digit carries log2(10) ~ 3.32 bits; guess from the bit
	// length and correct the guess by at most one against a power of ten.
	abs := new(big.Int).Abs(b)
	guess := int64(float64(abs.BitLen()-1)*math.Log10(2)) + 1
	if abs.Cmp(bigPow10(guess-1)) < 0 {
		return guess - 1
	}
	if abs.Cmp(bigPow10(guess)) >= 0 {
		return guess + 1
	}
	return guess
}

// divPow10Away divides v by 10^n, n > 0, rounding a non-exact quotient away
// from zero. exact reports whether nothing was lost.
func divPow10Away(v int64, n int64) (q int64, exact bool) {
	if v == 0 {
		return 0, true
	}
	if n >= int64(len(int64Pow10)) {
		// |v| < 10^19 <= 10^n: only the rounding unit is left.
		if v < 0 {
			return -1, false
		}
		return 1, false
	}
	p := int64Pow10[n]
	q, r := v/p, v%p
	switch {
	case r > 0:
		q++
	case r < 0:
		q--
	}
	return q, r == 0
}

// bigDivPow10Away is divPow10Away for a big.Int; it returns a new value.
func bigDivPow10Away(v *big.Int, n int64) (q *big.Int, exact bool) {
	sign := v.Sign()
	if sign == 0 {
		return new(big.Int), true
	}
	if n >= digitsBig(v) {
		return big.NewInt(int64(sign)), false
	}
	q, r := new(big.Int).QuoRem(v, bigPow10(n), new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(int64(sign)))
	}
	return q, r.Sign() == 0
}

// stripTens removes trailing decimal zeros from a non-zero v and returns the
// result with the count removed.
func stripTens(v int64) (int64, int64) {
	var n int64
	for v%10 == 0 {
		v /= 10
		n++
	}
	return v, n
}

// floorMod3 returns e mod 3 in [0, 2], for negative e too.
func floorMod3(e int64) int64 {
	r := e % 3
	if r < 0 {
		r += 3
	}
	return r
}
