package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
)

// object is one object a scenario created: its name and the version the
// next replace must name.
type object struct {
	name string
	rv   string // API server: metadata.resourceVersion
	rev  int64  // etcd: the key's mod revision
}

// target is what the scenarios drive: the API server over HTTP or etcd
// directly. Operations on distinct objects may run concurrently.
type target interface {
	create(ctx context.Context, o *object) error
	get(ctx context.Context, o *object) error
	replace(ctx context.Context, o *object, seq int) error
}

// apiTarget drives the API server's REST endpoints with a keep-alive client.
type apiTarget struct {
	client     *http.Client
	collection string // e.g. http://127.0.0.1:1234/api/v1/namespaces/default/pods
	bodies     *bodies
}

func newHTTPClient() *http.Client {
	return &http.Client{
		Timeout: opTimeout,
		Transport: &http.Transport{
			MaxIdleConns:        256,
			MaxIdleConnsPerHost: 128,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

func (a *apiTarget) do(ctx context.Context, method, url string, body []byte, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, err
	}
	data, err := readBody(resp)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("%s %s: read body: %w", method, url, err)
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: HTTP %d, want %d: %.300s", method, url, resp.StatusCode, want, data)
	}
	return data, nil
}

// readBody reads a response body into one buffer of its declared length:
// the load generator shares the cores with the server it measures.
func readBody(resp *http.Response) ([]byte, error) {
	if resp.ContentLength <= 0 {
		return io.ReadAll(resp.Body)
	}
	data := make([]byte, resp.ContentLength)
	_, err := io.ReadFull(resp.Body, data)
	return data, err
}

func (a *apiTarget) create(ctx context.Context, o *object) error {
	data, err := a.do(ctx, http.MethodPost, a.collection, a.bodies.render(o.name, "", 0), http.StatusCreated)
	if err != nil {
		return err
	}
	o.rv, err = resourceVersionOf(data)
	return err
}

func (a *apiTarget) get(ctx context.Context, o *object) error {
	_, err := a.do(ctx, http.MethodGet, a.collection+"/"+o.name, nil, http.StatusOK)
	return err
}

func (a *apiTarget) replace(ctx context.Context, o *object, seq int) error {
	data, err := a.do(ctx, http.MethodPut, a.collection+"/"+o.name, a.bodies.render(o.name, o.rv, seq), http.StatusOK)
	if err != nil {
		return err
	}
	o.rv, err = resourceVersionOf(data)
	return err
}

// etcdTarget does what the API server's storage does, straight to etcd:
// create and replace are compare-and-swap transactions on the mod revision.
type etcdTarget struct {
	client *clientv3.Client
	prefix string
	value  []byte
}

func (e *etcdTarget) key(o *object) string { return e.prefix + o.name }

func (e *etcdTarget) create(ctx context.Context, o *object) error {
	key := e.key(o)
	resp, err := e.client.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(e.value))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return fmt.Errorf("create %s: already exists", key)
	}
	o.rev = resp.Header.Revision
	return nil
}

func (e *etcdTarget) get(ctx context.Context, o *object) error {
	resp, err := e.client.Get(ctx, e.key(o))
	if err != nil {
		return err
	}
	if len(resp.Kvs) == 0 {
		return fmt.Errorf("get %s: not found", e.key(o))
	}
	return nil
}

func (e *etcdTarget) replace(ctx context.Context, o *object, seq int) error {
	key := e.key(o)
	resp, err := e.client.Txn(ctx).
		If(clientv3.Compare(clientv3.ModRevision(key), "=", o.rev)).
		Then(clientv3.OpPut(key, string(e.value))).
		Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return fmt.Errorf("replace %s: revision %s is stale", key, strconv.FormatInt(o.rev, 10))
	}
	o.rev = resp.Header.Revision
	return nil
}

// protoTarget drives the same endpoints through the staging typed client,
// as the platform's daemons do: protobuf request and response bodies,
// decoded into typed objects on the client side.
type protoTarget struct {
	pods *client.Client[corev1.Pod, *corev1.Pod]
	// pod is the JSON body decoded once; each request sends a shallow copy
	// with its own name, resourceVersion and annotations.
	pod corev1.Pod
}

// newProtoTarget returns the target of namespace default's pods on the
// server at host, with the daemons' client settings but no rate limit.
func newProtoTarget(host string, b *bodies) (*protoTarget, error) {
	rc, err := rest.NewClient(&rest.Config{Host: host, QPS: -1, Timeout: opTimeout})
	if err != nil {
		return nil, err
	}
	p := &protoTarget{pods: client.NewSet(rc).Pods.Namespace("default")}
	if err := json.Unmarshal(b.render(objectName(0, 0), "", 0), &p.pod); err != nil {
		return nil, fmt.Errorf("decode the pod body: %w", err)
	}
	return p, nil
}

func (p *protoTarget) object(o *object, seq int) *corev1.Pod {
	pod := p.pod
	pod.Name, pod.ResourceVersion = o.name, o.rv
	pod.Annotations = maps.Clone(p.pod.Annotations)
	pod.Annotations["bench.platform.io/seq"] = fmt.Sprintf("%08d", seq)
	return &pod
}

func (p *protoTarget) create(ctx context.Context, o *object) error {
	out, err := p.pods.Create(ctx, p.object(o, 0), meta.WriteOptions{})
	if err != nil {
		return err
	}
	o.rv = out.ResourceVersion
	return nil
}

func (p *protoTarget) get(ctx context.Context, o *object) error {
	_, err := p.pods.Get(ctx, o.name, meta.GetOptions{})
	return err
}

func (p *protoTarget) replace(ctx context.Context, o *object, seq int) error {
	out, err := p.pods.Update(ctx, p.object(o, seq), meta.WriteOptions{})
	if err != nil {
		return err
	}
	o.rv = out.ResourceVersion
	return nil
}
