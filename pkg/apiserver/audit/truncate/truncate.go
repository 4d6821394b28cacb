package truncate

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit"
)

// PluginName names the wrapper in metrics.
const PluginName = "truncate"

// AnnotationTruncated marks an event whose objects were dropped.
const AnnotationTruncated = "audit.platform.io/truncated"

// Config are the limits, in bytes of an event's JSON encoding.
type Config struct {
	MaxEventSize int64
	MaxBatchSize int64
}

// ErrTooLarge is the error counted for an event dropped for its size.
var ErrTooLarge = errors.New("event is too large even after truncating")

// Backend applies the limits in front of a delegate.
type Backend struct {
	lg       *zap.Logger
	delegate audit.Backend
	cfg      Config
	metrics  *audit.Metrics
}

var _ audit.Backend = (*Backend)(nil)

// New wraps delegate.
func New(lg *zap.Logger, delegate audit.Backend, cfg Config, m *audit.Metrics) *Backend {
	return &Backend{lg: lg, delegate: delegate, cfg: cfg, metrics: m}
}

// ProcessEvents truncates or drops oversized events and passes the rest
// on in batches under MaxBatchSize; false when an event was dropped or the
// delegate failed.
func (b *Backend) ProcessEvents(events ...*auditv1.Event) bool {
	ok := true
	var batch []*auditv1.Event
	var batchSize int64
	flush := func() {
		if len(batch) > 0 {
			ok = b.delegate.ProcessEvents(batch...) && ok
		}
		batch, batchSize = nil, 0
	}
	for _, ev := range events {
		size := eventSize(ev)
		if size > b.cfg.MaxEventSize {
			ev = truncated(ev)
			if size = eventSize(ev); size > b.cfg.MaxEventSize {
				b.metrics.PluginError(b.lg, PluginName, ErrTooLarge, ev)
				ok = false
				continue
			}
		}
		if len(batch) > 0 && batchSize+size > b.cfg.MaxBatchSize {
			flush()
		}
		batch = append(batch, ev)
		batchSize += size
	}
	flush()
	return ok
}

// truncated is a copy of ev without its objects.
func truncated(ev *auditv1.Event) *auditv1.Event {
	c := *ev
	c.RequestObject, c.ResponseObject = nil, nil
	c.Annotations = maps.Clone(ev.Annotations)
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[AnnotationTruncated] = "true"
	return &c
}

func eventSize(ev *auditv1.Event) int64 {
	b, err := json.Marshal(ev)
	if err != nil {
		return 0
	}
	return int64(len(b))
}

// Run runs the delegate.
func (b *Backend) Run(ctx context.Context) { b.delegate.Run(ctx) }

func (b *Backend) String() string { return PluginName + "<" + b.delegate.String() + ">" }
