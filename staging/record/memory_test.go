package record

import (
	"fmt"
	"runtime"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// BenchmarkCorrelatorMemory reports the heap a sink's caches keep per
// distinct event (one Scheduled event of each new pod, as a scheduler
// writes them) until they are full: what a daemon's memory grows by as
// pods come and go.
func BenchmarkCorrelatorMemory(b *testing.B) {
	const events = DefaultCacheSize
	clock := newFakeClock()
	for range b.N {
		before := heapInUse()
		c := newCorrelator(Options{Clock: clock}.withDefaults(), &namer{})
		for i := range events {
			w, _ := c.correlate(scheduledEvent(i))
			c.written(w.key, w.event)
		}
		after := heapInUse()
		runtime.KeepAlive(c)
		b.ReportMetric(float64(after-before)/events, "bytes/event")
	}
}

// scheduledEvent is the Scheduled event of the i-th pod, its strings
// made afresh as a decoded pod's are.
func scheduledEvent(i int) *corev1.Event {
	name := fmt.Sprintf("web-7bd564bc8c-%05d", i)
	return &corev1.Event{
		ObjectMeta: meta.ObjectMeta{Name: name + ".18a2b3c4d5e6f7a8", Namespace: "soak"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "soak", Name: name,
			UID: meta.UID(fmt.Sprintf("6f1c2d3e-4b5a-4c6d-8e7f-%012d", i)), APIVersion: "v1", ResourceVersion: "12345"},
		Reason: "Scheduled", Message: "Successfully assigned soak/" + name + " to simnode-1",
		Source: corev1.EventSource{Component: "default-scheduler"}, Type: corev1.EventTypeNormal,
		ReportingController: "default-scheduler", ReportingInstance: "default-scheduler-host-1",
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
