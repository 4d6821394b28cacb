package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
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
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("%s %s: read body: %w", method, url, err)
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: HTTP %d, want %d: %.300s", method, url, resp.StatusCode, want, data)
	}
	return data, nil
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
