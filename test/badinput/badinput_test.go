package badinput

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

// requestTimeout bounds each request: a case that takes longer hangs.
const requestTimeout = 10 * time.Second

// fixtures are the objects the cases aim at, created before the first
// look at etcd.
var fixtures = []struct{ path, doc string }{
	{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"badinput"}}`},
	{"/api/v1/namespaces/badinput/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","labels":{"app":"x"}},"data":{"a":"1","b":"2"}}`},
	{"/api/v1/namespaces/badinput/secrets", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"},"data":{"k":"dmFsdWU="}}`},
	{"/api/v1/namespaces/badinput/pods", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[{"name":"c1","image":"busybox","ports":[{"containerPort":80}]},{"name":"c2","image":"nginx"}]}}`},
	{"/apis/apps/v1/namespaces/badinput/deployments", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d1"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"d1"}},"template":{"metadata":{"labels":{"app":"d1"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`},
	{"/apis/batch/v1/namespaces/badinput/cronjobs", `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj1"},"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}`},
	{"/apis/coordination.platform.io/v1/namespaces/badinput/leases", `{"apiVersion":"coordination.platform.io/v1","kind":"Lease","metadata":{"name":"l1"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15}}`},
}

func TestBadInput(t *testing.T) {
	corpus := loadCorpus(t)
	if len(corpus) < 200 {
		t.Errorf("the corpus has %d cases, want at least 200", len(corpus))
	}
	s := framework.Start(t)
	for _, f := range fixtures {
		s.Do(t, "POST", f.path, f.doc).Expect(t, http.StatusCreated)
	}
	etcd := etcdClient(t)
	before := snapshot(t, etcd, s.Prefix)
	client := &http.Client{Timeout: requestTimeout}
	codes := map[int]int{}
	for _, c := range corpus {
		t.Run(c.file+"/"+c.Name, func(t *testing.T) {
			code := send(t, client, s.URL, c)
			codes[code]++
		})
	}
	t.Logf("%d cases; answers by code: %v", len(corpus), codes)
	after := snapshot(t, etcd, s.Prefix)
	if diff := compare(before, after); diff != "" {
		t.Errorf("the corpus changed what etcd stores:\n%s", diff)
	}
}

// send sends one case and checks the answer, returning its code.
func send(t *testing.T, client *http.Client, base string, c badCase) int {
	t.Helper()
	var body io.Reader
	if len(c.body) > 0 {
		body = bytes.NewReader(c.body)
	}
	req, err := http.NewRequest(c.Method, base+c.Path, body)
	if err != nil {
		t.Fatalf("build request: %v", err)
	}
	if len(c.body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.Headers {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: no answer within %v: %v", c.Method, c.Path, requestTimeout, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	if resp.StatusCode >= 500 {
		t.Errorf("server error %d: %s", resp.StatusCode, shorten(data))
	}
	if resp.StatusCode != c.Code {
		t.Errorf("got %d, want %d; body: %s", resp.StatusCode, c.Code, shorten(data))
	}
	var st struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
		Status     string `json:"status"`
		Code       int    `json:"code"`
		Reason     string `json:"reason"`
		Message    string `json:"message"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Errorf("the answer is not a JSON Status (Content-Type %q): %v; body: %s", resp.Header.Get("Content-Type"), err, shorten(data))
		return resp.StatusCode
	}
	if st.Kind != "Status" || st.APIVersion != "v1" || st.Status != "Failure" || st.Code != resp.StatusCode || st.Message == "" {
		t.Errorf("the answer is not a failure Status with code %d and a message: %s", resp.StatusCode, shorten(data))
	}
	if c.Reason != "" && st.Reason != c.Reason {
		t.Errorf("reason %q, want %q; message: %s", st.Reason, c.Reason, st.Message)
	}
	return resp.StatusCode
}

func shorten(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

func etcdClient(t *testing.T) *clientv3.Client {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: etcdtest.Endpoints(t), DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatalf("etcd client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// state is what etcd holds under a prefix: each key's modification revision.
type state map[string]int64

func snapshot(t *testing.T, c *clientv3.Client, prefix string) state {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, prefix+"/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatalf("read etcd: %v", err)
	}
	out := state{}
	for _, kv := range resp.Kvs {
		out[string(kv.Key)] = kv.ModRevision
	}
	return out
}

// compare lists keys added, removed or written between two states.
func compare(before, after state) string {
	var lines []string
	for k, rev := range after {
		switch was, ok := before[k]; {
		case !ok:
			lines = append(lines, "added "+k)
		case was != rev:
			lines = append(lines, fmt.Sprintf("written %s (revision %d -> %d)", k, was, rev))
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			lines = append(lines, "removed "+k)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
