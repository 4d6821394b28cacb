package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
)

// TestCustomCachesLoaded: /readyz's crd-watch-cache check waits for the
// custom resources' caches that have not filled, but not past the grace,
// so that one broken definition cannot keep the server unready.
func TestCustomCachesLoaded(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	loaded := func() bool { return true }
	loading := func() bool { return false }
	tests := []struct {
		name    string
		caches  map[string]*runningCache
		after   time.Duration
		wantErr string
	}{
		{name: "none", after: 0},
		{name: "all loaded", caches: map[string]*runningCache{
			"/a": {resource: "as.example.com", loaded: loaded, started: start},
		}},
		{name: "one loading", after: time.Second, caches: map[string]*runningCache{
			"/a": {resource: "as.example.com", loaded: loaded, started: start},
			"/b": {resource: "bs.example.com", loaded: loading, started: start},
			"/c": {resource: "cs.example.com", loaded: loading, started: start},
		}, wantErr: "still loading: bs.example.com, cs.example.com"},
		{name: "past the grace", after: time.Minute, caches: map[string]*runningCache{
			"/b": {resource: "bs.example.com", loaded: loading, started: start},
		}},
		{name: "one past the grace, one not", after: time.Minute, caches: map[string]*runningCache{
			"/b": {resource: "bs.example.com", loaded: loading, started: start},
			"/c": {resource: "cs.example.com", loaded: loading, started: start.Add(time.Second)},
		}, wantErr: "still loading: cs.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &customResources{s: &Server{lg: zap.NewNop()}, caches: tt.caches, loadGrace: time.Minute,
				now: func() time.Time { return start.Add(tt.after) }}
			err := c.cachesLoaded(context.Background())
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one ending with %q", err, tt.wantErr)
			}
		})
	}
}
