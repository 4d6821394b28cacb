package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// target is the API server the writers and the watcher use.
type target struct {
	url    string
	client *http.Client
}

// TestRestartLosesNothing restarts the API server (SIGTERM, then a new
// process on the same etcd) while writers create configmaps and a watcher
// follows them: every write answered 201 is there afterwards, and the
// watcher, resuming from its last resourceVersion after the restart, sees
// each acknowledged write exactly once, in order.
func TestRestartLosesNothing(t *testing.T) {
	t.Parallel()
	etcd := startEtcd(t)
	cfg := ServerConfig{EtcdServers: etcd, Args: []string{"--shutdown-delay-duration", "1s"}}
	s1 := StartServerWith(t, cfg)
	var cur atomic.Pointer[target]
	cur.Store(&target{s1.URL, s1.client(t, 10*time.Second)})
	_, body, err := call(cur.Load().client, "GET", s1.URL+cmPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	startRV := Field(t, decodeMap(t, body), "metadata", "resourceVersion").(string)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	// mu guards acked and failed.
	var mu sync.Mutex
	acked := map[string]int64{}
	failed := 0
	for i := range 3 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("w%d-%d", i, n)
				tg := cur.Load()
				resp, data, err := call(tg.client, "POST", tg.url+cmPath, configMap(name))
				if err == nil && resp.StatusCode == http.StatusCreated {
					rv, _ := strconv.ParseInt(fieldString(data, "resourceVersion"), 10, 64)
					mu.Lock()
					acked[name] = rv
					mu.Unlock()
					continue
				}
				mu.Lock()
				failed++
				mu.Unlock()
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	ackedCount := func() int { mu.Lock(); defer mu.Unlock(); return len(acked) }

	// The watcher: one stream at a time, each resumed from the last
	// resourceVersion seen, until stopWatch.
	var events []watchEvent
	var watchErr error
	var lastRV atomic.Int64
	startN, _ := strconv.ParseInt(startRV, 10, 64)
	lastRV.Store(startN)
	streams := 0
	stopWatch := make(chan struct{})
	watcherDone := make(chan struct{})
	go func() {
		defer close(watcherDone)
		for {
			tg := cur.Load()
			if w, err := dialWatch(&http.Client{Transport: tg.client.Transport}, tg.url+cmPath+"?resourceVersion="+strconv.FormatInt(lastRV.Load(), 10)); err == nil {
				streams++
				if watchErr = follow(w, stopWatch, &events, &lastRV); watchErr != nil {
					return
				}
			}
			select {
			case <-stopWatch:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()

	Eventually(t, 20*time.Second, "50 writes acknowledged before the restart", func() string {
		if n := ackedCount(); n < 50 {
			return fmt.Sprintf("%d so far", n)
		}
		return ""
	})
	sent := time.Now()
	s1.Signal(t, syscall.SIGTERM)
	if code := s1.WaitExit(t, 15*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	exited := time.Since(sent)
	before := ackedCount()
	s2 := StartServerWith(t, cfg)
	cur.Store(&target{s2.URL, s2.client(t, 10*time.Second)})
	restarted := time.Since(sent)
	Eventually(t, 20*time.Second, "50 more writes acknowledged after the restart", func() string {
		if n := ackedCount(); n < before+50 {
			return fmt.Sprintf("%d since the restart", n-before)
		}
		return ""
	})
	// Stop the writers, then let the watcher catch up with the last write.
	close(stop)
	wg.Wait()
	var maxRV int64
	for _, rv := range acked {
		maxRV = max(maxRV, rv)
	}
	Eventually(t, 20*time.Second, "the watcher sees the last acknowledged write", func() string {
		if rv := lastRV.Load(); rv < maxRV {
			return fmt.Sprintf("at %d of %d", rv, maxRV)
		}
		return ""
	})
	close(stopWatch)
	<-watcherDone
	if watchErr != nil {
		t.Fatal(watchErr)
	}
	s2Client := s2.client(t, 10*time.Second)

	// Every acknowledged write is stored.
	_, body, err = call(s2Client, "GET", s2.URL+cmPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for _, name := range ItemNames(t, decodeMap(t, body)) {
		stored[name] = true
	}
	for name := range acked {
		if !stored[name] {
			t.Errorf("acknowledged write %s is lost", name)
		}
	}
	// The watcher saw each acknowledged write once, at its resourceVersion,
	// and the events came in resourceVersion order.
	seen := map[string]int{}
	var prev int64
	for _, e := range events {
		rv, _ := strconv.ParseInt(e.Object.Metadata.ResourceVersion, 10, 64)
		if rv <= prev {
			t.Errorf("event %s %s at %d after %d: out of order", e.Type, e.Object.Metadata.Name, rv, prev)
		}
		prev = rv
		seen[e.Object.Metadata.Name]++
		if want, ok := acked[e.Object.Metadata.Name]; ok && want != rv {
			t.Errorf("event of %s at %d, acknowledged at %d", e.Object.Metadata.Name, rv, want)
		}
	}
	for name := range acked {
		if seen[name] != 1 {
			t.Errorf("acknowledged write %s seen %d times by the watcher, want once", name, seen[name])
		}
	}
	t.Logf("%d writes acknowledged (%d before the restart), %d failed or refused; %d watch events over %d streams; old server exited %v after SIGTERM, new one ready %v after it",
		len(acked), before, failed, len(events), streams, exited, restarted)
}

// follow appends the events of w to events until w ends or stop; an ERROR
// event is returned as an error.
func follow(w *watchStream, stop <-chan struct{}, events *[]watchEvent, lastRV *atomic.Int64) error {
	defer w.body.Close()
	for {
		select {
		case <-stop:
			return nil
		case e, ok := <-w.events:
			if !ok {
				return nil
			}
			if e.Type == "ERROR" {
				return fmt.Errorf("watch error event: %+v", e)
			}
			rv, _ := strconv.ParseInt(e.Object.Metadata.ResourceVersion, 10, 64)
			*events = append(*events, e)
			lastRV.Store(rv)
		}
	}
}

func decodeMap(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %s: %v", truncateBody(body), err)
	}
	return m
}

// fieldString returns metadata.<key> of a JSON object, or "".
func fieldString(body []byte, key string) string {
	var m struct {
		Metadata map[string]any `json:"metadata"`
	}
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	s, _ := m.Metadata[key].(string)
	return s
}
