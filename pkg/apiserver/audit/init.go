package audit

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/authz"
)

// initState is what WithAuditInit leaves for WithAudit: the request's
// audit ID, and whether WithAudit was reached (authentication passed).
type initState struct {
	id      string
	reached bool
}

type initKey struct{}

// auditIDFor returns the ID WithAuditInit gave r, marking it reached, or
// r's Audit-ID header or a new UUID when there was no WithAuditInit.
func auditIDFor(r *http.Request) string {
	if st, ok := r.Context().Value(initKey{}).(*initState); ok {
		st.reached = true
		return st.id
	}
	if id := r.Header.Get(HeaderAuditID); id != "" {
		return id
	}
	return uuid.NewString()
}

// WithAuditInit runs before authentication: it gives every request its
// audit ID (the client's Audit-ID header, or a new UUID) and returns it
// in the Audit-ID response header, and records a request that failed
// authentication (401) as upstream does: one event at stage
// ResponseStarted, without a user, at the level the policy gives such a
// request.
func WithAuditInit(lg *zap.Logger, h http.Handler, c Config) http.Handler {
	c = c.withDefaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(HeaderAuditID)
		if id == "" {
			id = uuid.NewString()
		}
		w.Header().Set(HeaderAuditID, id)
		st := &initState{id: id}
		r = r.WithContext(context.WithValue(r.Context(), initKey{}, st))
		if c.Backend == nil || c.Policy == nil {
			h.ServeHTTP(w, r)
			return
		}
		cw := &codeWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		if st.reached || cw.code != http.StatusUnauthorized {
			return
		}
		a := authz.AttributesFor(r, nil)
		d := c.Policy.Evaluate(a)
		if c.Metrics != nil {
			c.Metrics.levels.WithLabelValues(string(d.Level)).Inc()
		}
		if d.Level == auditv1.LevelNone {
			return
		}
		now := meta.MicroTime{Time: c.Now().UTC().Truncate(time.Microsecond)}
		ev := newEvent(r, id, d.Level, a, now)
		ev.ResponseStatus = &meta.Status{Code: http.StatusUnauthorized, Message: "Authentication failed"}
		stages := &stages{sink: c.Backend, omit: d.OmitStages, metrics: c.Metrics, now: c.Now}
		ra := &requestAudit{ev: ev}
		stages.send(ra.stage(auditv1.StageResponseStarted, stages.stamp(), nil))
	})
}

// codeWriter notes the response code.
type codeWriter struct {
	http.ResponseWriter
	code int
}

func (cw *codeWriter) WriteHeader(code int) {
	if cw.code == 0 {
		cw.code = code
	}
	cw.ResponseWriter.WriteHeader(code)
}

func (cw *codeWriter) Write(b []byte) (int, error) {
	if cw.code == 0 {
		cw.code = http.StatusOK
	}
	return cw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (cw *codeWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

func (cw *codeWriter) Flush() { _ = http.NewResponseController(cw.ResponseWriter).Flush() }
