package log

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit"
)

// PluginName names the backend in flags and metrics.
const PluginName = "log"

// The formats.
const (
	FormatJSON   = "json"
	FormatLegacy = "legacy"
)

// Formats are the values of --audit-log-format.
func Formats() []string { return []string{FormatJSON, FormatLegacy} }

// Backend writes events to w.
type Backend struct {
	lg         *zap.Logger
	metrics    *audit.Metrics
	format     string
	apiVersion string
	// mu guards w, so lines never interleave.
	mu sync.Mutex
	w  io.Writer
}

var _ audit.Backend = (*Backend)(nil)

// New returns a backend writing to w in format, JSON events under
// apiVersion (audit.platform.io/v1 or audit.k8s.io/v1). When w is an
// io.Closer it is closed at the end of Run.
func New(lg *zap.Logger, w io.Writer, format, apiVersion string, m *audit.Metrics) *Backend {
	return &Backend{lg: lg, metrics: m, format: format, apiVersion: apiVersion, w: w}
}

// ProcessEvents writes each event as a line; false when one could not be
// encoded or written.
func (b *Backend) ProcessEvents(events ...*auditv1.Event) bool {
	ok := true
	for _, ev := range events {
		line, err := b.encode(ev)
		if err == nil {
			b.mu.Lock()
			_, err = b.w.Write(line)
			b.mu.Unlock()
		}
		if err != nil {
			b.metrics.PluginError(b.lg, PluginName, err, ev)
			ok = false
		}
	}
	return ok
}

func (b *Backend) encode(ev *auditv1.Event) ([]byte, error) {
	if b.format == FormatLegacy {
		return []byte(EventString(ev) + "\n"), nil
	}
	c := *ev
	c.APIVersion, c.Kind = b.apiVersion, "Event"
	line, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode audit event: %w", err)
	}
	return append(line, '\n'), nil
}

// Run closes the writer once ctx ends.
func (b *Backend) Run(ctx context.Context) {
	<-ctx.Done()
	if c, ok := b.w.(io.Closer); ok {
		b.mu.Lock()
		defer b.mu.Unlock()
		if err := c.Close(); err != nil {
			b.lg.Warn("cannot close the audit log", zap.Error(err))
		}
	}
}

func (b *Backend) String() string { return PluginName }

// EventString is upstream's legacy line for an event, e.g.
// `2026-01-02T03:04:05.000006Z AUDIT: id="…" stage="ResponseComplete"
// ip="127.0.0.1" method="get" user="alice" groups="\"system:authenticated\""
// as="<self>" asgroups="<lookup>" user-agent="kubectl" namespace="default"
// uri="/api/v1/…" response="200"`.
func EventString(ev *auditv1.Event) string {
	user, groups := "<none>", "<none>"
	if ev.User.Username != "" {
		user = ev.User.Username
		if len(ev.User.Groups) > 0 {
			groups = quoteAll(ev.User.Groups)
		}
	}
	asUser, asGroups := "<self>", "<lookup>"
	if ev.ImpersonatedUser != nil {
		asUser = ev.ImpersonatedUser.Username
		if ev.ImpersonatedUser.Groups != nil {
			asGroups = quoteAll(ev.ImpersonatedUser.Groups)
		}
	}
	namespace := "<none>"
	if ev.ObjectRef != nil && ev.ObjectRef.Namespace != "" {
		namespace = ev.ObjectRef.Namespace
	}
	response := "<deferred>"
	if ev.ResponseStatus != nil {
		response = strconv.Itoa(int(ev.ResponseStatus.Code))
	}
	ip := "<unknown>"
	if len(ev.SourceIPs) > 0 {
		ip = ev.SourceIPs[0]
	}
	return fmt.Sprintf("%s AUDIT: id=%q stage=%q ip=%q method=%q user=%q groups=%q as=%q asgroups=%q user-agent=%q namespace=%q uri=%q response=\"%s\"",
		ev.RequestReceivedTimestamp.UTC().Format(time.RFC3339Nano), ev.AuditID, ev.Stage, ip, ev.Verb, user, groups, asUser, asGroups,
		ev.UserAgent, namespace, ev.RequestURI, response)
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ",")
}
