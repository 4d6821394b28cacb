package resource

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"platform.io/client/codec/protobuf"
)

// wireMessage is the Quantity message holding s.
func wireMessage(s string) []byte { return protobuf.AppendString(nil, 1, s) }

// sameQuantity reports whether a and b are indistinguishable: equal fields,
// and big mantissas equal in value (they are never shared).
func sameQuantity(a, b Quantity) bool {
	if a.v != b.v || a.scale != b.scale || a.s != b.s || a.Format != b.Format || (a.b == nil) != (b.b == nil) {
		return false
	}
	return a.b == nil || a.b.Cmp(b.b) == 0
}

// wireTable covers the shapes the decoding cache sees: common canonical
// values, kept non-canonical spellings, every suffix family, big and
// rounded values, the length limit, and strings that do not parse.
var wireTable = []string{
	"0", "1", "4", "32", "110", "100m", "250m", "3920m", "128Mi", "1Gi", "64Gi",
	"16077844Ki", "93478772582", "1k", "1000", "1500", "12e6", "5e-3", "1E3",
	"+1", "01", "1.500", "1.G", "-0", "-100m", "0.1n", "1.5Gi", "512Ki", "0.5Ki",
	".5", "-", "m", "Ki", "9Ei", "8Ei", "1000E", "123456789012345678901234",
	"99999999999999999999999999999999", "999999999999999999999999999999999", // 32 and 33 bytes
	"1e2147483647", "1e2147483648", "", " 1", "1 ", "1x", "1Mi1", "abc", "1e", "--1", "1..2",
}

// TestUnmarshalProtoMatchesParse decodes every string three times, missing,
// admitting and then hitting the cache, and requires the result (or error) to be exactly
// what ParseQuantity gives.
func TestUnmarshalProtoMatchesParse(t *testing.T) {
	for _, s := range wireTable {
		want, wantErr := ParseQuantity(s)
		for _, pass := range []string{"first", "admitted", "cached"} {
			var got Quantity
			err := got.UnmarshalProto(wireMessage(s))
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%q (%s): error %v, want %v", s, pass, err, wantErr)
				continue
			}
			if err == nil && !sameQuantity(got, want) {
				t.Errorf("%q (%s): %#v, want %#v", s, pass, got, want)
			}
		}
	}
}

// TestUnmarshalProtoIndependentCopies checks that changing a decoded
// quantity changes neither the cache nor another decoded copy.
func TestUnmarshalProtoIndependentCopies(t *testing.T) {
	for _, s := range []string{"100m", "1Gi", "110", "1.500"} {
		var a, b Quantity
		for range 3 { // until a comes from the cache
			if err := a.UnmarshalProto(wireMessage(s)); err != nil {
				t.Fatal(err)
			}
		}
		a.Add(MustParse("1"))
		a.Format = DecimalExponent
		if err := b.UnmarshalProto(wireMessage(s)); err != nil {
			t.Fatal(err)
		}
		if want := MustParse(s); !sameQuantity(b, want) {
			t.Errorf("%q after changing an earlier copy: %#v, want %#v", s, b, want)
		}
	}
}

// TestUnmarshalProtoKeepsNoInput checks that a decoded quantity's text does
// not alias the input, which decoders may reuse.
func TestUnmarshalProtoKeepsNoInput(t *testing.T) {
	for _, s := range []string{"1.500", "7Mi", "123m"} { // kept verbatim by String
		data := wireMessage(s)
		var q Quantity
		for range 3 { // until the text is cached
			if err := q.UnmarshalProto(data); err != nil {
				t.Fatal(err)
			}
		}
		for i := range data {
			data[i] = 'x'
		}
		if q.String() != s {
			t.Errorf("after overwriting the input, %q reads %q", s, q.String())
		}
	}
}

// TestUnmarshalProtoEmptyMessage keeps q as it was, as before the cache.
func TestUnmarshalProtoEmptyMessage(t *testing.T) {
	q := MustParse("5")
	if err := q.UnmarshalProto(nil); err != nil || q.Cmp(MustParse("5")) != 0 {
		t.Errorf("empty message: %v, %v", q, err)
	}
}

// TestUnmarshalProtoConcurrent decodes colliding and distinct strings from
// several goroutines at once (run it with -race): every result must match
// ParseQuantity.
func TestUnmarshalProtoConcurrent(t *testing.T) {
	var inputs []string
	for i := range 3 * wireCacheSlots { // more strings than slots, so entries are replaced
		inputs = append(inputs, fmt.Sprintf("%dm", i), fmt.Sprintf("%dKi", i))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range inputs {
				s := inputs[(i*7+g*131)%len(inputs)]
				var q Quantity
				if err := q.UnmarshalProto(wireMessage(s)); err != nil || !sameQuantity(q, MustParse(s)) {
					select {
					case errs <- fmt.Sprintf("%q: %#v, %v", s, q, err):
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// FuzzUnmarshalProto checks that decoding any string through the cache,
// until it is cached, agrees with ParseQuantity.
func FuzzUnmarshalProto(f *testing.F) {
	for _, s := range wireTable {
		f.Add(s)
	}
	f.Add(strings.Repeat("9", 40))
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := ParseQuantity(s)
		for range 3 {
			var got Quantity
			err := got.UnmarshalProto(wireMessage(s))
			if (err == nil) != (wantErr == nil) || (err == nil && !sameQuantity(got, want)) {
				t.Fatalf("%q: %#v, %v; ParseQuantity: %#v, %v", s, got, err, want, wantErr)
			}
		}
	})
}

// TestWireCacheSharesRepeats checks that a quantity decoded again and
// again comes from the cache: after its first two decodes, a decode
// allocates nothing.
func TestWireCacheSharesRepeats(t *testing.T) {
	data := wireMessage("777777Mi")
	var q Quantity
	for range 2 { // miss, admit
		if err := q.UnmarshalProto(data); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = q.UnmarshalProto(data) }); n != 0 {
		t.Errorf("a cached quantity's decode: %v allocations, want 0", n)
	}
	if q.String() != "777777Mi" {
		t.Errorf("decoded %q", q.String())
	}
}
