package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// burstNamespaces is how many namespaces the burst deletes at once.
const burstNamespaces = 200

// leaseState is what a lease says about its holder.
type leaseState struct {
	Holder      string    `json:"holderIdentity"`
	Transitions int       `json:"leaseTransitions"`
	RenewTime   time.Time `json:"renewTime"`
}

// api sends one JSON request to s and returns the code and body.
func (s *Server) api(t testing.TB, hc *http.Client, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, path, err)
		return 0, nil
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes()
}

// lease reads platform-system/name.
func (s *Server) lease(t testing.TB, hc *http.Client, name string) (leaseState, bool) {
	t.Helper()
	code, body := s.api(t, hc, "GET", "/apis/coordination.platform.io/v1/namespaces/platform-system/leases/"+name, nil)
	if code != http.StatusOK {
		return leaseState{}, false
	}
	var l struct {
		Spec leaseState `json:"spec"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	return l.Spec, l.Spec.Holder != ""
}

// parallel runs f(i) for i < n on 8 goroutines.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// TestLeasesSurviveNamespaceBurst: the scheduler and the controller
// manager, at their default QPS and leader-election timings, keep their
// leases through the deletion of 200 namespaces at once, each holding two
// ConfigMaps, a Secret and a pending Pod: the namespace controller's work
// fills the controller manager's rate limiter for far longer than the
// renew deadline, and the renewals go through their own client.
func TestLeasesSurviveNamespaceBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of namespace deletion")
	}
	t.Parallel()
	s := StartServer(t)
	hc, err := s.httpClient()
	if err != nil {
		t.Fatal(err)
	}
	hc.Timeout = 30 * time.Second
	parallel(burstNamespaces, func(i int) {
		ns := fmt.Sprintf("burst-%03d", i)
		if code, body := s.api(t, hc, "POST", "/api/v1/namespaces", map[string]any{
			"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}); code != http.StatusCreated {
			t.Errorf("create namespace %s: %d %s", ns, code, body)
			return
		}
		objs := []struct{ path, kind string }{{"configmaps", "ConfigMap"}, {"configmaps", "ConfigMap"}, {"secrets", "Secret"}}
		for j, o := range objs {
			s.api(t, hc, "POST", "/api/v1/namespaces/"+ns+"/"+o.path, map[string]any{
				"apiVersion": "v1", "kind": o.kind, "metadata": map[string]any{"name": fmt.Sprintf("o-%d", j)}})
		}
		s.api(t, hc, "POST", "/api/v1/namespaces/"+ns+"/pods", map[string]any{
			"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}})
	})
	if t.Failed() {
		t.FailNow()
	}

	// Default QPS, burst and leader-election timings.
	sched := s.StartProcess(t, "platform-scheduler", "--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(t)), "--port=0")
	cm := s.StartProcess(t, "platform-controller-manager", "--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(freePort(t)))
	names := []string{"platform-scheduler", "platform-controller-manager"}
	start := map[string]leaseState{}
	Eventually(t, 60*time.Second, "both daemons leading", func() string {
		for _, n := range names {
			l, ok := s.lease(t, hc, n)
			if !ok {
				return n + " holds no lease"
			}
			start[n] = l
		}
		return ""
	})

	began := time.Now()
	parallel(burstNamespaces, func(i int) {
		ns := fmt.Sprintf("burst-%03d", i)
		if code, body := s.api(t, hc, "DELETE", "/api/v1/namespaces/"+ns, nil); code != http.StatusOK && code != http.StatusAccepted {
			t.Errorf("delete namespace %s: %d %s", ns, code, body)
		}
	})
	t.Logf("%d namespace deletions sent in %s", burstNamespaces, time.Since(began).Round(time.Millisecond))

	// Three lease durations (15 s each): every renewal must land in time
	// and no lease may change hands.
	const watch = 45 * time.Second
	worst := map[string]time.Duration{}
	for time.Since(began) < watch {
		for _, n := range names {
			l, ok := s.lease(t, hc, n)
			if !ok || l.Holder != start[n].Holder || l.Transitions != start[n].Transitions {
				t.Fatalf("%s lease %+v, was %+v: the lease changed hands during the burst", n, l, start[n])
			}
			if age := time.Since(l.RenewTime); age > worst[n] {
				worst[n] = age
			}
		}
		for _, p := range []*Process{sched, cm} {
			select {
			case <-p.Exited():
				t.Fatalf("%s exited during the burst:\n%s", p.Name, tail(p.LogPath, 20))
			default:
			}
		}
		time.Sleep(time.Second)
	}
	for _, p := range []*Process{sched, cm} {
		data, _ := os.ReadFile(p.LogPath)
		if strings.Contains(string(data), "leader election lost") {
			t.Errorf("%s logged that it lost the election", p.Name)
		}
	}
	// The controller manager's writes landed (they carry its lock): the
	// namespace controller has been emptying and removing namespaces.
	left := 0
	for i := 0; i < burstNamespaces; i++ {
		if code, _ := s.api(t, hc, "GET", fmt.Sprintf("/api/v1/namespaces/burst-%03d", i), nil); code == http.StatusOK {
			left++
		}
	}
	t.Logf("after %s: leases kept (oldest renewal seen: scheduler %s, controller manager %s); %d of %d namespaces still terminating",
		watch, worst["platform-scheduler"].Round(time.Millisecond), worst["platform-controller-manager"].Round(time.Millisecond), left, burstNamespaces)
	if left == burstNamespaces {
		t.Errorf("no namespace was removed in %s: the controller manager's writes did not land", watch)
	}
	for n, w := range worst {
		if w > 10*time.Second {
			t.Errorf("%s lease went %s without a renewal, more than the 10s renew deadline", n, w)
		}
	}
}
