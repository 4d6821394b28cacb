package record

import (
	"encoding/json"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// correlator decides, for one sink, what becomes of each event: dropped by
// the spam filter, combined with similar events, and created or patched. It
// is not safe for concurrent use; each sink's goroutine has its own.
type correlator struct {
	clock  Clock
	names  *namer
	spam   *spamFilter // nil when off
	agg    *aggregator // nil when off
	series *lru[seriesKey, seriesState]
}

// seriesState is what is known of an event already written.
type seriesState struct {
	name, resourceVersion string
	count                 int32
	first                 meta.Time
}

// write is one event to write: created when patch is nil, else patched.
type write struct {
	event *corev1.Event
	key   seriesKey
	patch []byte
}

func newCorrelator(o Options, names *namer) *correlator {
	c := &correlator{clock: o.Clock, names: names, series: newLRU[seriesKey, seriesState](o.CacheSize)}
	if o.SpamBurst > 0 {
		c.spam = newSpamFilter(o.SpamBurst, o.SpamRefill, o.CacheSize)
	}
	if o.AggregateMaxEvents > 0 {
		c.agg = newAggregator(o.AggregateMaxEvents, o.AggregateInterval, o.CacheSize)
	}
	return c
}

// correlate returns the write for in, or false when the spam filter drops
// it. in is not modified.
func (c *correlator) correlate(in *corev1.Event) (write, bool) {
	now := c.clock.Now()
	if c.spam != nil && !c.spam.allow(spamKeyOf(in), now) {
		return write{}, false
	}
	cp := *in
	ev := &cp
	key := seriesKeyOf(ev)
	if g := groupKeyOf(ev); c.agg != nil && c.agg.combine(g, ev.Message, now) {
		ev, key = c.combined(ev, now), combinedKeyOf(g)
	}
	w := write{event: ev, key: key}
	if prev, ok := c.series.get(key); ok {
		ev.Name, ev.ResourceVersion, ev.FirstTimestamp = prev.name, prev.resourceVersion, prev.first
		ev.Count = prev.count + 1
		w.patch = seriesPatch(ev)
	}
	c.series.put(key, seriesState{name: ev.Name, resourceVersion: ev.ResourceVersion, count: ev.Count, first: ev.FirstTimestamp})
	return w, true
}

// combined returns the event that stands for ev and its similar events.
func (c *correlator) combined(ev *corev1.Event, now time.Time) *corev1.Event {
	t := meta.NewTime(now)
	return &corev1.Event{
		ObjectMeta:          meta.ObjectMeta{Name: c.names.name(ev.InvolvedObject.Name, now), Namespace: ev.Namespace},
		InvolvedObject:      ev.InvolvedObject,
		Reason:              ev.Reason,
		Message:             combinedPrefix + ev.Message,
		Source:              ev.Source,
		FirstTimestamp:      t,
		LastTimestamp:       t,
		Count:               1,
		Type:                ev.Type,
		ReportingController: ev.ReportingController,
		ReportingInstance:   ev.ReportingInstance,
	}
}

// written records what the sink returned for the event written under key.
func (c *correlator) written(key seriesKey, got *corev1.Event) {
	if got == nil || got.Name == "" {
		return
	}
	prev, _ := c.series.get(key)
	first := got.FirstTimestamp
	if first.IsZero() {
		first = prev.first
	}
	c.series.put(key, seriesState{
		name:            got.Name,
		resourceVersion: got.ResourceVersion,
		count:           max(got.Count, prev.count, 1),
		first:           first,
	})
}

// seriesPatch is the strategic merge patch that brings an existing event up
// to ev: its count, lastTimestamp and message.
func seriesPatch(ev *corev1.Event) []byte {
	p := struct {
		Count         int32     `json:"count"`
		LastTimestamp meta.Time `json:"lastTimestamp"`
		Message       string    `json:"message"`
	}{ev.Count, ev.LastTimestamp, ev.Message}
	// Neither an int, a string nor a meta.Time can fail to encode.
	data, _ := json.Marshal(p)
	return data
}
