package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"platform.io/client/client"

	"platform.io/platform/pkg/component/run"
)

// TestWorkStartsOnSyncedInformers runs a daemon without leader election
// whose work, at its first instant, looks at the informer its New
// declared: it must hold the server's list already.
func TestWorkStartsOnSyncedInformers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/namespaces" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Has("sendInitialEvents") {
			// A server without watch-list that checks its parameters: the
			// informer lists instead.
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"BadRequest","code":400}`)
			return
		}
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		fmt.Fprint(w, `{"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"7"},`+
			`"items":[{"metadata":{"name":"a","resourceVersion":"7"}},{"metadata":{"name":"b","resourceVersion":"6"}}]}`)
	}))
	defer srv.Close()

	errRan := errors.New("the work ran")
	seen := make(chan int, 1)
	s := testSpec()
	s.New = func(_ context.Context, d *Deps) (run.Runnable, error) {
		inf, err := client.Inform(d.Informers, d.Clients.Namespaces)
		if err != nil {
			return nil, err
		}
		return run.Func(func(context.Context) error {
			seen <- inf.GetStore().Len()
			return errRan
		}), nil
	}
	var stdout, stderr bytes.Buffer
	code := Execute(s, []string{"--master=" + srv.URL, "--secure-port=0", "--leader-elect=false"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), errRan.Error()) {
		t.Fatalf("exit code %d, stderr %q; want 1 and %q", code, stderr.String(), errRan)
	}
	if n := <-seen; n != 2 {
		t.Errorf("the work started with %d namespaces in the informer, want the 2 listed", n)
	}
}
