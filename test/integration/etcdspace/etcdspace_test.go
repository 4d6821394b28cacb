package etcdspace

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

const (
	// quota is etcd's --quota-backend-bytes: small, so the test fills it
	// in a few seconds.
	quota = 16 << 20
	// ballastBytes is the data of each version of the ballast ConfigMap;
	// every update keeps the old version as history, as when compaction
	// stops, which is what the operator's compaction frees.
	ballastBytes = 700 << 10
	// maxFills bounds the updates that fill etcd (quota / ballastBytes is
	// about 23).
	maxFills = 200
	cmPath   = "/api/v1/namespaces/default/configmaps"
)

var mergePatch = framework.Header{"Content-Type": "application/merge-patch+json"}

func configMap(name string, data map[string]string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": data}
}

// TestEtcdOutOfSpace fills etcd until it raises NOSPACE and checks what
// the API server does: every kind of write answers a 500 Status naming the
// quota at once (no retries, not a 409 or 504), reads, lists and watches
// keep working, readiness stays up (reads are served; no other API server
// of the same etcd would do better), nothing is lost; after the operator
// compacts, defragments and disarms the alarm, writes work again on the
// same server and the watches opened before see them.
func TestEtcdOutOfSpace(t *testing.T) {
	if os.Getenv(etcdtest.EnvEndpoints) != "external" {
		t.Skip("needs the etcd binary: runs with PLATFORM_TEST_ETCD=external (make test-external-etcd)")
	}
	e, err := etcdtest.StartExternal(fmt.Sprintf("--quota-backend-bytes=%d", quota))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	etcd, err := clientv3.New(clientv3.Config{Endpoints: []string{e.ClientURL}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { etcd.Close() })
	// No compaction by the server: the history it would free is what fills etcd.
	srv := framework.Start(t, framework.EtcdServers(e.ClientURL), func(o *options.Options) { o.Etcd.CompactionInterval = 0 })

	kept := map[string]string{}
	for _, name := range []string{"keep-0", "keep-1", "keep-2"} {
		kept[name] = "value of " + name
		srv.Do(t, "POST", cmPath, configMap(name, map[string]string{"v": kept[name]})).Expect(t, http.StatusCreated)
	}
	var list struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	srv.Do(t, "GET", cmPath, nil).Expect(t, http.StatusOK).Into(t, &list)
	before := openWatch(t, srv, list.Metadata.ResourceVersion)

	srv.Do(t, "POST", cmPath, configMap("ballast", nil)).Expect(t, http.StatusCreated)
	refused := fill(t, srv)
	checkNoSpace(t, "the filling update", refused)
	alarms, err := etcd.AlarmList(context.Background())
	if err != nil || !hasNoSpace(alarms) {
		t.Fatalf("etcd raised no NOSPACE alarm: %v %v", alarms, err)
	}

	// Every kind of write is refused at once, with the same answer.
	start := time.Now()
	checkNoSpace(t, "create", srv.Do(t, "POST", cmPath, configMap("new-0", map[string]string{"v": "x"})))
	checkNoSpace(t, "update", srv.Do(t, "PUT", cmPath+"/keep-0", configMap("keep-0", map[string]string{"v": "changed"})))
	checkNoSpace(t, "patch", srv.Do(t, "PATCH", cmPath+"/keep-1", `{"data":{"v":"changed"}}`, mergePatch))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("three refused writes took %v: something retries them", d)
	}

	// Reads keep working, from the cache and from etcd.
	for name, v := range kept {
		if got := dataOf(t, srv.Do(t, "GET", cmPath+"/"+name, nil).Expect(t, http.StatusOK)); got != v {
			t.Errorf("GET %s during NOSPACE: data %q, want %q", name, got, v)
		}
	}
	for _, q := range []string{"", "?resourceVersion=0", "?limit=100"} {
		if n := countItems(t, srv.Do(t, "GET", cmPath+q, nil).Expect(t, http.StatusOK)); n != len(kept)+1 {
			t.Errorf("LIST%s during NOSPACE: %d items, want %d", q, n, len(kept)+1)
		}
	}
	srv.Do(t, "GET", cmPath+"?watch=1&resourceVersion=0&timeoutSeconds=1", nil).Expect(t, http.StatusOK)
	during := openWatch(t, srv, "")
	// Deletes free space, and etcd takes them while its database is below
	// the quota (it refuses writes that would add to it): either the
	// object is gone, or it stays and the answer is the same 500.
	deleted := srv.Do(t, "DELETE", cmPath+"/keep-2", nil)
	switch deleted.Code {
	case http.StatusOK:
		srv.Do(t, "GET", cmPath+"/keep-2", nil).Expect(t, http.StatusNotFound)
		delete(kept, "keep-2")
	default:
		checkNoSpace(t, "delete", deleted)
	}
	for _, p := range []string{"/readyz", "/healthz", "/livez"} {
		srv.Do(t, "GET", p, nil).Expect(t, http.StatusOK)
	}

	// The operator's recovery: compact the history, defragment, disarm.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cur, err := etcd.Get(ctx, "probe")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := etcd.Compact(ctx, cur.Header.Revision, clientv3.WithCompactPhysical()); err != nil {
		t.Fatalf("compact: %v", err)
	}
	if _, err := etcd.Defragment(ctx, e.ClientURL); err != nil {
		t.Fatalf("defragment: %v", err)
	}
	for _, a := range alarms.Alarms {
		if _, err := etcd.AlarmDisarm(ctx, (*clientv3.AlarmMember)(a)); err != nil {
			t.Fatalf("disarm: %v", err)
		}
	}

	// Writes work again on the same server, and both watches see them.
	srv.Do(t, "POST", cmPath, configMap("after", map[string]string{"v": "x"})).Expect(t, http.StatusCreated)
	srv.Do(t, "PATCH", cmPath+"/keep-1", `{"data":{"v":"patched"}}`, mergePatch).Expect(t, http.StatusOK)
	for name, w := range map[string]*watchStream{"opened before NOSPACE": before, "opened during NOSPACE": during} {
		if deleted.Code == http.StatusOK {
			w.waitFor(t, name, "DELETED keep-2")
		}
		w.waitFor(t, name, "ADDED after")
		w.waitFor(t, name, "MODIFIED keep-1")
	}
	kept["keep-1"] = "patched"
	for name, v := range kept {
		if got := dataOf(t, srv.Do(t, "GET", cmPath+"/"+name, nil).Expect(t, http.StatusOK)); got != v {
			t.Errorf("GET %s after recovery: data %q, want %q", name, got, v)
		}
	}
}

// fill updates the ballast with fresh data until a write is refused, and
// returns that response.
func fill(t *testing.T, srv *framework.Server) framework.Response {
	t.Helper()
	chunk := strings.Repeat("x", ballastBytes-8)
	for i := range maxFills {
		r := srv.Do(t, "PUT", cmPath+"/ballast", configMap("ballast", map[string]string{"v": fmt.Sprintf("%s%08d", chunk, i)}))
		if r.Code != http.StatusOK {
			return r
		}
	}
	t.Fatalf("etcd took %d updates of %d bytes without refusing one (quota %d)", maxFills, ballastBytes, quota)
	return framework.Response{}
}

// checkNoSpace fails t unless r is the API server's answer to a write etcd
// refused for its quota: a 500 InternalError Status naming the cause.
func checkNoSpace(t *testing.T, what string, r framework.Response) {
	t.Helper()
	var st struct {
		Kind, Reason, Message string
		Code                  int
	}
	if err := json.Unmarshal(r.Body, &st); err != nil || r.Code != http.StatusInternalServerError ||
		st.Kind != "Status" || st.Code != 500 || st.Reason != "InternalError" {
		t.Fatalf("%s during NOSPACE: HTTP %d %s, want a 500 InternalError Status", what, r.Code, r.Body)
	}
	for _, want := range []string{"storage quota is exceeded", "database space exceeded", "compacts and defragments"} {
		if !strings.Contains(st.Message, want) {
			t.Errorf("%s during NOSPACE: message %q does not say %q", what, st.Message, want)
		}
	}
	if r.Header.Get("Retry-After") != "" {
		t.Errorf("%s during NOSPACE: Retry-After %q invites clients to retry what only an operator can fix", what, r.Header.Get("Retry-After"))
	}
}

func hasNoSpace(r *clientv3.AlarmResponse) bool {
	for _, a := range r.Alarms {
		if a.Alarm == etcdserverpb.AlarmType_NOSPACE {
			return true
		}
	}
	return false
}

func dataOf(t *testing.T, r framework.Response) string {
	t.Helper()
	var cm struct{ Data map[string]string }
	r.Into(t, &cm)
	return cm.Data["v"]
}

func countItems(t *testing.T, r framework.Response) int {
	t.Helper()
	var l struct{ Items []json.RawMessage }
	r.Into(t, &l)
	return len(l.Items)
}

// watchStream is an open watch of the ConfigMaps whose events arrive on a
// channel as "TYPE name".
type watchStream struct{ events chan string }

func openWatch(t *testing.T, srv *framework.Server, rv string) *watchStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+cmPath+"?watch=1&timeoutSeconds=120&resourceVersion="+rv, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	w := &watchStream{events: make(chan string, 64)}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var ev struct {
				Type   string
				Object struct{ Metadata struct{ Name string } }
			}
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				select {
				case w.events <- ev.Type + " " + ev.Object.Metadata.Name:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	t.Cleanup(cancel)
	return w
}

// waitFor reads the stream until want arrives.
func (w *watchStream) waitFor(t *testing.T, name, want string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-w.events:
			if got == want {
				return
			}
		case <-timeout:
			t.Fatalf("watch %s: no %q within 10s", name, want)
		}
	}
}
