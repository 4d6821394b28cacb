package audit

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/audit/auditctx"
	"platform.io/platform/pkg/apiserver/audit/policy"
	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/component/authn"
)

// HeaderAuditID is the request and response header carrying a request's
// audit ID.
const HeaderAuditID = "Audit-ID"

// Config is what WithAudit records with.
type Config struct {
	// Backend receives the events; with none, WithAudit only sets Audit-ID.
	Backend Backend
	// Policy chooses each request's level; with none, nothing is recorded.
	Policy  *policy.Evaluator
	Metrics *Metrics
	// LongRunning tells the requests (watches) that get a ResponseStarted
	// stage.
	LongRunning func(*http.Request) bool
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// WithAudit gives every request an audit ID (the one WithAuditInit chose,
// or the client's Audit-ID header, or a new UUID), returned in the Audit-ID
// response header, and records
// the request's stages at the level the policy chooses for its user. The
// user comes from the context, so WithAudit runs after authentication;
// impersonation and authorization run inside it, so their refusals are
// recorded. When the backend cannot record the RequestReceived stage and
// says so (blocking-strict), the request fails with 500 without being
// handled.
func WithAudit(lg *zap.Logger, h http.Handler, c Config) http.Handler {
	c = c.withDefaults()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := auditIDFor(r)
		w.Header().Set(HeaderAuditID, id)
		if c.Backend == nil || c.Policy == nil {
			h.ServeHTTP(w, r)
			return
		}
		u, ok := authn.UserFrom(r.Context())
		if !ok {
			u = authn.AnonymousUser()
		}
		a := authz.AttributesFor(r, u)
		d := c.Policy.Evaluate(a)
		if c.Metrics != nil {
			c.Metrics.levels.WithLabelValues(string(d.Level)).Inc()
		}
		if d.Level == auditv1.LevelNone {
			h.ServeHTTP(w, r)
			return
		}
		received := meta.MicroTime{Time: c.Now().UTC().Truncate(time.Microsecond)}
		ra := &requestAudit{ev: newEvent(r, id, d.Level, a, received)}
		if a.ResourceRequest {
			readRequestBody(lg, r, ra.ev, d.Level.GreaterOrEqual(auditv1.LevelRequest), d.OmitManagedFields)
		}
		st := &stages{sink: c.Backend, omit: d.OmitStages, metrics: c.Metrics, now: c.Now}
		if !st.send(ra.stage(auditv1.StageRequestReceived, received, nil)) {
			if c.Metrics != nil {
				c.Metrics.rejected.Inc()
			}
			endpoints.WriteError(w, r, apierrors.NewInternalError(errors.New("failed to store audit event")))
			return
		}
		aw := &responseWriter{w: w, ra: ra, st: st, longRunning: c.LongRunning(r),
			captureBody: d.Level == auditv1.LevelRequestResponse, omitManagedFields: d.OmitManagedFields}
		defer func() {
			if p := recover(); p != nil {
				st.send(ra.stage(auditv1.StagePanic, st.stamp(), func(ev *auditv1.Event) {
					ev.ResponseStatus = &meta.Status{Status: meta.StatusFailure, Code: http.StatusInternalServerError,
						Reason: meta.StatusReasonInternalError, Message: fmt.Sprintf("APIServer panic'd: %v", p)}
				}))
				panic(p)
			}
			st.send(ra.stage(auditv1.StageResponseComplete, st.stamp(), aw.complete))
		}()
		h.ServeHTTP(aw, r.WithContext(auditctx.With(r.Context(), ra)))
	})
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.LongRunning == nil {
		c.LongRunning = func(*http.Request) bool { return false }
	}
	return c
}

// stages sends a request's stages to the sink, skipping omitted ones.
type stages struct {
	sink    Sink
	omit    []auditv1.Stage
	metrics *Metrics
	now     func() time.Time
}

func (s *stages) stamp() meta.MicroTime {
	return meta.MicroTime{Time: s.now().UTC().Truncate(time.Microsecond)}
}

// send records ev unless its stage is omitted; false means the sink could
// not record it and the request must fail.
func (s *stages) send(ev *auditv1.Event) bool {
	if slices.Contains(s.omit, ev.Stage) {
		return true
	}
	if s.metrics != nil {
		s.metrics.events.Inc()
	}
	return s.sink.ProcessEvents(ev)
}
