package healthz

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/zap"
)

func TestSet(t *testing.T) {
	slot := &Slot{}
	slot.Set(func(*http.Request) error { return errors.New("lease lost") })
	set, err := NewSet("healthz", Ping(),
		Check{Name: "informers", Check: func(*http.Request) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	failing, err := NewSet("livez", Ping(), slot.Check("leaderElection"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	set.Install(zap.NewNop(), mux)
	failing.Install(zap.NewNop(), mux)
	tests := []struct {
		path     string
		wantCode int
		wantBody string
	}{
		{"/healthz", 200, "ok"},
		{"/healthz?verbose", 200, "[+]ping ok\n[+]informers ok\nhealthz check passed\n"},
		{"/healthz?verbose&exclude=informers&exclude=nope", 200,
			"[+]ping ok\n[+]informers excluded: ok\nwarn: some health checks cannot be excluded: no matches for \"nope\"\nhealthz check passed\n"},
		{"/healthz/ping", 200, "ok"},
		{"/healthz/missing", 404, "404 page not found\n"},
		{"/livez", 500, "[+]ping ok\n[-]leaderElection failed: reason withheld\nlivez check failed\n"},
		{"/livez?exclude=leaderElection", 200, "ok"},
		{"/livez/leaderElection", 500, "internal server error: lease lost\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != tt.wantCode || string(body) != tt.wantBody {
				t.Fatalf("got %d %q, want %d %q", rec.Code, body, tt.wantCode, tt.wantBody)
			}
		})
	}
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name    string
		checks  []Check
		wantErr bool
	}{
		{name: "new name", checks: []Check{{Name: "etcd", Check: func(*http.Request) error { return nil }}}},
		{name: "duplicate", checks: []Check{Ping()}, wantErr: true},
		{name: "empty name", checks: []Check{{Name: ""}}, wantErr: true},
		{name: "slash", checks: []Check{{Name: "a/b"}}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := NewSet("readyz", Ping())
			if err := s.Add(tt.checks...); (err != nil) != tt.wantErr {
				t.Fatalf("Add = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

func TestEmptySlotPasses(t *testing.T) {
	var s Slot
	if err := s.Check("x").Check(nil); err != nil {
		t.Fatal(err)
	}
	s.Set(func(*http.Request) error { return errors.New("no") })
	s.Set(nil)
	if err := s.Check("x").Check(nil); err != nil {
		t.Fatal(err)
	}
}
