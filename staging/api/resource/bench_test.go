package resource

import (
	"strconv"
	"testing"
)

// benchQuantities are the strings requests, limits, capacity and
// allocatable hold most often.
var benchQuantities = []string{"100m", "250m", "1", "4", "3920m", "128Mi", "1Gi", "110", "16077844Ki", "93478772582", "0"}

func BenchmarkQuantityUnmarshalProto(b *testing.B) {
	encoded := make([][]byte, len(benchQuantities))
	for i, s := range benchQuantities {
		q := MustParse(s)
		encoded[i] = q.MarshalProto(nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range encoded {
			var q Quantity
			if err := q.UnmarshalProto(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkQuantityMarshalProto(b *testing.B) {
	list := make([]Quantity, len(benchQuantities))
	for i, s := range benchQuantities {
		list[i] = MustParse(s)
	}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		for i := range list {
			buf = list[i].MarshalProto(buf[:0])
		}
	}
}

// BenchmarkQuantityUnmarshalProtoDistinct decodes more distinct strings
// than the decoding cache holds, so that nearly every decode misses: the
// cost of the cache when it does not help.
func BenchmarkQuantityUnmarshalProtoDistinct(b *testing.B) {
	encoded := make([][]byte, 4*wireCacheSlots)
	for i := range encoded {
		q := MustParse(strconv.Itoa(1000+i*7) + "Ki")
		encoded[i] = q.MarshalProto(nil)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var q Quantity
		if err := q.UnmarshalProto(encoded[i%len(encoded)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
