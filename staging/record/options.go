package record

import (
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Defaults of Options, the values upstream's recorder uses.
const (
	DefaultQueueLength        = 1000
	DefaultSpamBurst          = 25
	DefaultSpamRefill         = 5 * time.Minute
	DefaultAggregateMaxEvents = 10
	DefaultAggregateInterval  = 10 * time.Minute
	DefaultCacheSize          = 4096
	DefaultMaxTries           = 12
	DefaultRetryInterval      = 10 * time.Second
)

// combinedPrefix starts the message of an event that stands for similar
// events.
const combinedPrefix = "(combined from similar events): "

// Clock is the source of time: event timestamps, the spam filter's buckets,
// the aggregation window and the waits between retries all read it.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Options tune a Broadcaster. The zero value of every field means its
// default, and so does a negative one unless the field says otherwise.
type Options struct {
	// Clock defaults to the wall clock.
	Clock Clock
	// QueueLength bounds the events waiting for each sink.
	QueueLength int
	// SpamBurst is the size of each (source, object) token bucket; a
	// negative value turns the spam filter off.
	SpamBurst int
	// SpamRefill is how long a bucket takes to regain one token.
	SpamRefill time.Duration
	// AggregateMaxEvents is how many distinct messages of similar events
	// start aggregation; a negative value turns aggregation off.
	AggregateMaxEvents int
	// AggregateInterval is how long aggregation state lasts after the last
	// similar event.
	AggregateInterval time.Duration
	// CacheSize bounds the keys each per-sink cache remembers.
	CacheSize int
	// MaxTries bounds the attempts to write one event.
	MaxTries int
	// RetryInterval is the wait between attempts.
	RetryInterval time.Duration
	// OnError, when set, is told of every event given up: rejected by the
	// Recorder (bad type or object) or not written after its last attempt.
	// It runs on the recording goroutine or the sink's, and must not block.
	OnError func(ev *corev1.Event, err error)
	// ResolveKind, when set, supplies the apiVersion and kind of an object
	// whose TypeMeta is empty.
	ResolveKind func(obj meta.Object) (apiVersion, kind string)
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	o.QueueLength = orDefault(o.QueueLength, DefaultQueueLength)
	if o.SpamBurst == 0 {
		o.SpamBurst = DefaultSpamBurst
	}
	o.SpamRefill = orDefault(o.SpamRefill, DefaultSpamRefill)
	if o.AggregateMaxEvents == 0 {
		o.AggregateMaxEvents = DefaultAggregateMaxEvents
	}
	o.AggregateInterval = orDefault(o.AggregateInterval, DefaultAggregateInterval)
	o.CacheSize = orDefault(o.CacheSize, DefaultCacheSize)
	o.MaxTries = orDefault(o.MaxTries, DefaultMaxTries)
	o.RetryInterval = orDefault(o.RetryInterval, DefaultRetryInterval)
	if o.OnError == nil {
		o.OnError = func(*corev1.Event, error) {}
	}
	return o
}

// orDefault returns def for a v that is not positive.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
