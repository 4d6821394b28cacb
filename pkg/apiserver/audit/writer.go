package audit

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"sync"

	auditv1 "platform.io/client/api/audit/v1"
	"platform.io/client/api/meta"
)

const (
	// maxResponseBody is the most of a response body RequestResponse
	// records; a larger body is left out (its status is still recorded).
	maxResponseBody = 10 << 20
	// maxErrorBody is the most of a failure's body read for its Status.
	maxErrorBody = 64 << 10
)

// responseWriter watches a response for the audit event: its code, for a
// long-running request the ResponseStarted stage when the headers go out,
// the Status of a failure, and at RequestResponse the body.
type responseWriter struct {
	w                 http.ResponseWriter
	ra                *requestAudit
	st                *stages
	longRunning       bool
	captureBody       bool
	omitManagedFields bool

	// mu guards the fields below.
	mu    sync.Mutex
	code  int
	wrote bool
	keep  bool
	limit int
	over  bool
	body  bytes.Buffer
}

var (
	_ http.ResponseWriter = (*responseWriter)(nil)
	_ http.Flusher        = (*responseWriter)(nil)
)

func (a *responseWriter) Header() http.Header { return a.w.Header() }

// Unwrap lets http.ResponseController reach the connection's writer.
func (a *responseWriter) Unwrap() http.ResponseWriter { return a.w }

func (a *responseWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		a.w.WriteHeader(code)
		return
	}
	a.header(code)
	a.w.WriteHeader(code)
}

// header notes the code, once, and sends ResponseStarted for a
// long-running request.
func (a *responseWriter) header(code int) {
	a.mu.Lock()
	if a.wrote {
		a.mu.Unlock()
		return
	}
	a.wrote, a.code = true, code
	switch {
	case a.captureBody && !a.longRunning:
		a.keep, a.limit = true, maxResponseBody
	case code >= 400:
		a.keep, a.limit = true, maxErrorBody
	}
	a.mu.Unlock()
	if a.longRunning {
		a.st.send(a.ra.stage(auditv1.StageResponseStarted, a.st.stamp(), func(ev *auditv1.Event) {
			ev.ResponseStatus = &meta.Status{Code: int32(code)}
		}))
	}
}

func (a *responseWriter) Write(b []byte) (int, error) {
	a.header(http.StatusOK)
	a.mu.Lock()
	if a.keep && !a.over {
		if a.body.Len()+len(b) > a.limit {
			a.over = true
			a.body = bytes.Buffer{}
		} else {
			a.body.Write(b)
		}
	}
	a.mu.Unlock()
	return a.w.Write(b)
}

func (a *responseWriter) Flush() {
	a.header(http.StatusOK)
	_ = http.NewResponseController(a.w).Flush()
}

// complete fills the event's response fields when the handler is done.
func (a *responseWriter) complete(ev *auditv1.Event) {
	a.mu.Lock()
	defer a.mu.Unlock()
	code := a.code
	if !a.wrote {
		code = http.StatusOK
	}
	ev.ResponseStatus = &meta.Status{Code: int32(code)}
	if !a.keep || a.over || !isJSON(a.w.Header().Get("Content-Type")) {
		return
	}
	body := a.body.Bytes()
	if code >= 400 {
		var st meta.Status
		if json.Unmarshal(body, &st) == nil && st.Kind == "Status" {
			ev.ResponseStatus = &meta.Status{Status: st.Status, Message: st.Message, Reason: st.Reason, Details: st.Details, Code: int32(code)}
		}
	}
	if a.captureBody && !a.longRunning {
		ev.ResponseObject = objectJSON(body, a.omitManagedFields)
	}
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || (len(mt) > 5 && mt[len(mt)-5:] == "+json"))
}
