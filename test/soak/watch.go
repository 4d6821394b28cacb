package soak

import (
	"context"
	"fmt"
	"sync"
	"time"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/watch"
)

// watchState is what one long-running watch has seen.
type watchState struct {
	resource string
	// mu guards the fields below.
	mu      sync.Mutex
	last    time.Time
	events  int
	reopens int
}

func (st *watchState) seen() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.last = time.Now()
	st.events++
}

// watch follows w's resource in every namespace until ctx ends: a list,
// then a watch from its resourceVersion, resumed from the last one seen
// whenever the server ends it, and a new list when that is too old.
func (w *Workload) watch(ctx context.Context, st *watchState) {
	switch st.resource {
	case "pods":
		follow(ctx, w, st, w.set.Pods)
	case "configmaps":
		follow(ctx, w, st, w.set.ConfigMaps)
	case "deployments":
		follow(ctx, w, st, w.set.Deployments)
	default:
		panic("soak: no watch for " + st.resource)
	}
}

func follow[T any, PT client.ObjectPtr[T]](ctx context.Context, w *Workload, st *watchState, c *client.Client[T, PT]) {
	rv := ""
	for ctx.Err() == nil {
		if rv == "" {
			l, err := c.List(ctx, meta.ListOptions{Limit: 500})
			w.op(ctx, "list for watch", err)
			if err != nil {
				pause(ctx, time.Second)
				continue
			}
			rv = l.ResourceVersion
		}
		wi, err := c.Watch(ctx, meta.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
		w.op(ctx, "open watch", err)
		if err != nil {
			rv = ""
			pause(ctx, time.Second)
			continue
		}
		rv = drain(ctx, wi, st, rv)
		if ctx.Err() == nil {
			st.mu.Lock()
			st.reopens++
			st.mu.Unlock()
		}
	}
}

// drain consumes a watch until it ends and returns the resourceVersion
// to resume from: "" after an error event (410 Gone: relist).
func drain[T any, PT client.ObjectPtr[T]](ctx context.Context, wi watch.Interface[PT], st *watchState, rv string) string {
	defer wi.Stop()
	for {
		select {
		case <-ctx.Done():
			return rv
		case e, ok := <-wi.ResultChan():
			if !ok {
				return rv
			}
			switch e.Type {
			case watch.Error:
				return ""
			case watch.Bookmark:
			default:
				st.seen()
			}
			if e.Object != nil {
				rv = e.Object.GetObjectMeta().ResourceVersion
			}
		}
	}
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// checkWatches checks that every watch saw an event within watchSilence:
// the workload changes pods, ConfigMaps and Deployments every cycle.
func (w *Workload) checkWatches(ctx context.Context) {
	for _, st := range w.watches {
		st.mu.Lock()
		quiet := time.Since(st.last)
		st.mu.Unlock()
		var err error
		if quiet > watchSilence {
			err = fmt.Errorf("no %s event for %v", st.resource, quiet.Round(time.Second))
		}
		w.note(ctx, w.Checks, "watch "+st.resource+" live", err)
	}
}

// WatchSummary describes each watch: events seen and times reopened.
func (w *Workload) WatchSummary() []string {
	var out []string
	for _, st := range w.watches {
		st.mu.Lock()
		out = append(out, fmt.Sprintf("%s: %d events, reopened %d times", st.resource, st.events, st.reopens))
		st.mu.Unlock()
	}
	return out
}

// listLoop lists pods, ConfigMaps, nodes and Deployments in every
// namespace every listEvery, pods and ConfigMaps in pages of 50.
func (w *Workload) listLoop(ctx context.Context) {
	t := time.NewTicker(listEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.op(ctx, "list pods (paged)", listAll(ctx, w.set.Pods, 50))
		w.op(ctx, "list configmaps (paged)", listAll(ctx, w.set.ConfigMaps, 50))
		w.op(ctx, "list nodes", listAll(ctx, w.set.Nodes, 0))
		w.op(ctx, "list deployments", listAll(ctx, w.set.Deployments, 0))
	}
}

// listAll lists every page of a resource.
func listAll[T any, PT client.ObjectPtr[T]](ctx context.Context, c *client.Client[T, PT], limit int64) error {
	cont := ""
	for {
		l, err := c.List(ctx, meta.ListOptions{Limit: limit, Continue: cont})
		if err != nil {
			return err
		}
		if cont = l.Continue; cont == "" {
			return nil
		}
	}
}
