package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path"
	"strconv"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// floorServer is the least an HTTP front end over etcd can do per
// request: read the body, run the same etcd transaction as the API
// server's storage (create on an absent key, replace as a compare-and-swap
// on the mod revision, get), and answer with a body of about the same size
// carrying the new resourceVersion. No decoding, validation, defaulting,
// encoding or watch cache. Measured next to etcd and the API server, it
// says how much of the gap between them is HTTP itself on this machine.
type floorServer struct {
	raw *etcdTarget
}

func (f *floorServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o := &object{name: path.Base(r.URL.Path)}
	code := http.StatusOK
	switch r.Method {
	case http.MethodPost:
		err, code = f.raw.create(r.Context(), o), http.StatusCreated
	case http.MethodPut:
		// The object's revision rides in the resourceVersion query
		// parameter: the floor does not parse bodies.
		if o.rev, err = strconv.ParseInt(r.URL.Query().Get("rv"), 10, 64); err == nil {
			err = f.raw.replace(r.Context(), o, 0)
		}
	case http.MethodGet:
		var resp *clientv3.GetResponse
		if resp, err = f.raw.client.Get(r.Context(), f.raw.key(o)); err == nil && len(resp.Kvs) == 1 {
			o.rev, body = resp.Kvs[0].ModRevision, resp.Kvs[0].Value
		} else if err == nil {
			err = errors.New("not found")
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	// The answer: the new resourceVersion, then the body as it came (or
	// the stored value): about the size of the API server's answer, with
	// no encoding.
	out := make([]byte, 0, len(body)+64)
	out = fmt.Appendf(out, `{"metadata":{"resourceVersion":"%d"}}`+"\n", o.rev)
	out = append(out, body...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(code)
	_, _ = w.Write(out)
}

// startFloor serves floorServer on a loopback port for the benchmark's
// lifetime and returns a target that drives it like the API server's
// JSON side: the same HTTP client, the same request bodies.
func startFloor(b *testing.B, raw *etcdTarget, bodies *bodies) *floorTarget {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: &floorServer{raw: raw}}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.Close() })
	api := &apiTarget{client: newHTTPClient(), collection: "http://" + ln.Addr().String() + "/floor", bodies: bodies}
	b.Cleanup(api.client.CloseIdleConnections)
	return &floorTarget{api}
}

// floorObjectName is objectName for the floor's objects.
func floorObjectName(clients, i int) string { return fmt.Sprintf("checkout-f%02d-%07d", clients, i) }

// floorTarget is apiTarget with the object's name in the path of a
// create and its revision in the query of a replace.
type floorTarget struct{ *apiTarget }

func (f *floorTarget) create(ctx context.Context, o *object) error {
	data, err := f.do(ctx, http.MethodPost, f.collection+"/"+o.name, f.bodies.render(o.name, "", 0), http.StatusCreated)
	if err != nil {
		return err
	}
	o.rv, err = resourceVersionOf(data)
	return err
}

func (f *floorTarget) replace(ctx context.Context, o *object, seq int) error {
	data, err := f.do(ctx, http.MethodPut, f.collection+"/"+o.name+"?rv="+o.rv, f.bodies.render(o.name, o.rv, seq), http.StatusOK)
	if err != nil {
		return err
	}
	o.rv, err = resourceVersionOf(data)
	return err
}
