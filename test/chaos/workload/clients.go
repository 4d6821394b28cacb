package workload

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/test/chaos/check"
)

// ConfigMaps is the client the workload uses, scoped to its namespace.
type ConfigMaps = client.Client[corev1.ConfigMap, *corev1.ConfigMap]

// dataKey is the ConfigMap data key that holds a write's value.
const dataKey = "v"

// Classify maps a call's error to its outcome: a Status the server sent
// with a code that means it refused before doing anything (400, 403, 404,
// 409, 410, 422, 429), or a refused connection (the request was never
// sent), is Failed; every other error (a timeout, a reset
// connection, a 5xx, a body that could not be read) is Unknown, since the
// write may have happened.
func Classify(err error) check.Outcome {
	if err == nil {
		return check.OK
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return check.Failed
	}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		switch se.ErrStatus.Code {
		case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusConflict,
			http.StatusGone, http.StatusUnprocessableEntity, http.StatusTooManyRequests:
			return check.Failed
		}
	}
	return check.Unknown
}

// object returns the state a ConfigMap shows: its value and resourceVersion.
func object(cm *corev1.ConfigMap) (check.Object, error) {
	rv, err := strconv.ParseInt(cm.ResourceVersion, 10, 64)
	if err != nil {
		return check.Object{}, fmt.Errorf("resourceVersion %q of %s: %w", cm.ResourceVersion, cm.Name, err)
	}
	return check.Object{Value: cm.Data[dataKey], RV: rv}, nil
}

// worker is one workload client: it runs one operation at a time and
// remembers the last state it saw of each key, for its replaces.
type worker struct {
	id   int
	cms  *ConfigMaps
	rec  *check.Recorder
	keys []string
	rng  *rand.Rand
	// timeout bounds each operation.
	timeout time.Duration
	n       int
	// known is the last state this client saw of each key.
	known map[string]check.Object
}

// run does operations until ctx ends; an operation under way when it
// ends runs to its own timeout, so it is not cut short into an unknown
// outcome.
func (c *worker) run(ctx context.Context) {
	for ctx.Err() == nil {
		key := c.keys[c.rng.IntN(len(c.keys))]
		switch p := c.rng.IntN(100); {
		case p < 20:
			c.get(ctx, key)
		case p < 35:
			c.list(ctx)
		case p < 50:
			c.create(ctx, key)
		case p < 85:
			if _, ok := c.known[key]; !ok {
				c.get(ctx, key)
			}
			if _, ok := c.known[key]; ok {
				c.replace(ctx, key)
			}
		default:
			c.delete(ctx, key)
		}
	}
}

// opContext is the context of one operation.
func (c *worker) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
}

func (c *worker) value() string {
	c.n++
	return fmt.Sprintf("c%d-%d", c.id, c.n)
}

func (c *worker) get(ctx context.Context, key string) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	op := check.Op{Client: c.id, Kind: check.Get, Key: key, Call: c.rec.Now()}
	cm, err := c.cms.Get(ctx, key, meta.GetOptions{})
	op.Return = c.rec.Now()
	switch {
	case err == nil:
		op.Found = true
		op.Obj, err = object(cm)
		c.known[key] = op.Obj
	case apierrors.IsNotFound(err):
		err = nil
		delete(c.known, key)
	}
	c.finish(op, err)
}

func (c *worker) list(ctx context.Context) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	l, err := listOnce(ctx, c.rec, c.cms, c.id)
	backoff(err)
	if err == nil {
		for k, obj := range l.Items {
			c.known[k] = obj
		}
	}
}

// listOnce runs one quorum list and records it.
func listOnce(ctx context.Context, rec *check.Recorder, cms *ConfigMaps, id int) (check.Op, error) {
	op := check.Op{Client: id, Kind: check.List, Call: rec.Now()}
	l, err := cms.List(ctx, meta.ListOptions{})
	op.Return = rec.Now()
	if err == nil {
		op.ListRV, err = strconv.ParseInt(l.ResourceVersion, 10, 64)
		op.Items = map[string]check.Object{}
		for i := range l.Items {
			if err != nil {
				break
			}
			op.Items[l.Items[i].Name], err = object(&l.Items[i])
		}
	}
	op.Outcome = Classify(err)
	if err != nil {
		op.Err = err.Error()
	}
	rec.Add(op)
	return op, err
}

func (c *worker) create(ctx context.Context, key string) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	op := check.Op{Client: c.id, Kind: check.Create, Key: key, Value: c.value(), Call: c.rec.Now()}
	cm, err := c.cms.Create(ctx, configMap(key, op.Value, ""), meta.WriteOptions{})
	op.Return = c.rec.Now()
	if err == nil {
		op.Obj, err = object(cm)
		c.known[key] = op.Obj
	}
	c.finish(op, err)
}

func (c *worker) replace(ctx context.Context, key string) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	prev := c.known[key]
	op := check.Op{Client: c.id, Kind: check.Replace, Key: key, Value: c.value(), ExpectRV: prev.RV, Call: c.rec.Now()}
	cm, err := c.cms.Update(ctx, configMap(key, op.Value, strconv.FormatInt(prev.RV, 10)), meta.WriteOptions{})
	op.Return = c.rec.Now()
	if err == nil {
		op.Obj, err = object(cm)
		c.known[key] = op.Obj
	} else {
		delete(c.known, key)
	}
	c.finish(op, err)
}

func (c *worker) delete(ctx context.Context, key string) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	op := check.Op{Client: c.id, Kind: check.Delete, Key: key, Call: c.rec.Now()}
	err := c.cms.Delete(ctx, key, nil)
	op.Return = c.rec.Now()
	delete(c.known, key)
	c.finish(op, err)
}

// finish records op with the outcome of err; after an error that is no
// answer of the server's, the client pauses, so a server that is down is
// not called in a tight loop.
func (c *worker) finish(op check.Op, err error) {
	op.Outcome = Classify(err)
	if err != nil {
		op.Err = err.Error()
		var se *apierrors.StatusError
		if errors.As(err, &se) {
			op.Code = int(se.ErrStatus.Code)
		}
	}
	c.rec.Add(op)
	backoff(err)
}

// backoff pauses after an error that is no answer of the server's.
func backoff(err error) {
	var se *apierrors.StatusError
	if err != nil && !errors.As(err, &se) {
		pause(context.Background(), retryWait)
	}
}

func configMap(name, value, rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: meta.ObjectMeta{Name: name, ResourceVersion: rv},
		Data:       map[string]string{dataKey: value},
	}
}

// runClients runs n clients until ctx ends.
func runClients(ctx context.Context, n int, cms *ConfigMaps, rec *check.Recorder, keys []string, timeout time.Duration, seed uint64) {
	var wg sync.WaitGroup
	for i := range n {
		c := &worker{id: i, cms: cms, rec: rec, keys: keys, timeout: timeout,
			rng: rand.New(rand.NewPCG(seed, uint64(i))), known: map[string]check.Object{}}
		wg.Go(func() { c.run(ctx) })
	}
	wg.Wait()
}
