package status

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
)

func TestWriters(t *testing.T) {
	tests := []struct {
		name  string
		write func(http.ResponseWriter)
		want  meta.Status
	}{
		{"unauthorized", Unauthorized, New(401, meta.StatusReasonUnauthorized, "Unauthorized")},
		{"forbidden", func(w http.ResponseWriter) { Forbidden(w, "no") }, New(403, meta.StatusReasonForbidden, "no")},
		{"internal", func(w http.ResponseWriter) { InternalError(w, errors.New("boom")) },
			New(500, meta.StatusReasonInternalError, "Internal error occurred: boom")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tt.write(rec)
			if rec.Code != int(tt.want.Code) {
				t.Fatalf("code %d, want %d", rec.Code, tt.want.Code)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %q", ct)
			}
			var got meta.Status
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("status (-want +got):\n%s", diff)
			}
		})
	}
}
