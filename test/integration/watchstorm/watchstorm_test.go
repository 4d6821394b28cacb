package watchstorm

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/test/integration/framework"
)

const (
	objects  = 30
	watchers = 300
	cmPath   = "/api/v1/namespaces/default/configmaps"
)

// TestConcurrentWatchStarts opens 300 watches of the same ConfigMaps at
// once over HTTP, a third each resuming from a recent resourceVersion,
// from resourceVersion=0 and as watch-lists, then makes one change: every
// watch must be answered 200, a watch from the whole state must first get
// every object (a watch-list then its initial-events-end bookmark), and
// every watch must see the change.
func TestConcurrentWatchStarts(t *testing.T) {
	srv := framework.Start(t)
	for i := range objects {
		srv.Do(t, "POST", cmPath, map[string]any{"metadata": map[string]any{"name": fmt.Sprintf("cm-%03d", i)}}).Expect(t, http.StatusCreated)
	}
	var list struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	srv.Do(t, "GET", cmPath, nil).Expect(t, http.StatusOK).Into(t, &list)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: watchers}}
	defer client.CloseIdleConnections()
	queries := []string{
		"resourceVersion=" + list.Metadata.ResourceVersion,
		"resourceVersion=0",
		"sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=",
	}
	streams := make([]*bufio.Scanner, watchers)
	errs := make([]error, watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		wg.Go(func() {
			req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+cmPath+"?watch=1&"+queries[i%3], nil)
			if err != nil {
				errs[i] = err
				return
			}
			resp, err := client.Do(req)
			switch {
			case err != nil:
				errs[i] = err
			case resp.StatusCode != http.StatusOK:
				errs[i] = fmt.Errorf("HTTP %d", resp.StatusCode)
				resp.Body.Close()
			default:
				streams[i] = bufio.NewScanner(resp.Body)
				t.Cleanup(func() { resp.Body.Close() })
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("watch %d (%s): %v", i, queries[i%3], err)
		}
	}

	srv.Do(t, "POST", cmPath, map[string]any{"metadata": map[string]any{"name": "after"}}).Expect(t, http.StatusCreated)
	for i, s := range streams {
		wg.Go(func() { errs[i] = readUntilAfter(s, i%3) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("watch %d (%s): %v", i, queries[i%3], err)
		}
	}
}

// readUntilAfter reads a watch of the given kind (0 resume, 1 rv=0, 2
// watch-list) until the ADDED event of "after", checking its initial events.
func readUntilAfter(s *bufio.Scanner, kind int) error {
	added, ended := 0, kind != 2
	for s.Scan() {
		var ev struct {
			Type   string
			Object struct {
				Metadata struct {
					Name        string
					Annotations map[string]string
				}
			}
		}
		if err := json.Unmarshal(s.Bytes(), &ev); err != nil {
			return err
		}
		switch {
		case ev.Type == "BOOKMARK" && ev.Object.Metadata.Annotations[meta.InitialEventsEndAnnotation] == "true":
			if added != objects {
				return fmt.Errorf("initial events ended after %d objects, want %d", added, objects)
			}
			ended = true
		case ev.Type == "ADDED" && ev.Object.Metadata.Name == "after":
			if want := map[bool]int{true: 0, false: objects}[kind == 0]; !ended || added != want {
				return fmt.Errorf("the change came after %d initial objects (end marker seen: %v), want %d", added, ended, want)
			}
			return nil
		case ev.Type == "ADDED":
			added++
		}
	}
	return fmt.Errorf("stream ended after %d objects: %v", added, s.Err())
}
