package framework

import "testing"

var sink *Status

func BenchmarkNewStatusOneReason(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = NewStatus(UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector")
	}
}
