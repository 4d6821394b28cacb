package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineWaiter collects a running command's output lines and waits for one.
type lineWaiter struct {
	mu    sync.Mutex
	lines []string
	added chan struct{}
}

func (lw *lineWaiter) add(line string) {
	lw.mu.Lock()
	lw.lines = append(lw.lines, line)
	lw.mu.Unlock()
	select {
	case lw.added <- struct{}{}:
	default:
	}
}

// wait returns the first line after index from that contains every sub.
func (lw *lineWaiter) wait(t *testing.T, from int, subs ...string) int {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		lw.mu.Lock()
		for i := from; i < len(lw.lines); i++ {
			ok := true
			for _, s := range subs {
				ok = ok && strings.Contains(lw.lines[i], s)
			}
			if ok {
				lw.mu.Unlock()
				return i
			}
		}
		all := strings.Join(lw.lines, "\n")
		lw.mu.Unlock()
		select {
		case <-lw.added:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no line with %q after line %d; output so far:\n%s", subs, from, all)
		}
	}
}

// TestGetWatch: kubectl get -w prints the existing objects, then each change.
func TestGetWatch(t *testing.T) {
	s := StartServer(t)
	s.MustKubectl(t, "create", "namespace", "watch-e2e")
	s.MustKubectl(t, "create", "configmap", "before", "-n", "watch-e2e", "--from-literal=a=1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectlBinary(t), "get", "configmaps", "-n", "watch-e2e", "-w", "--output-watch-events")
	cmd.Env = s.kubectlEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cancel()
	lw := &lineWaiter{added: make(chan struct{}, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lw.add(sc.Text())
		}
	}()
	i := lw.wait(t, 0, "ADDED", "before")
	s.MustKubectl(t, "create", "configmap", "during", "-n", "watch-e2e", "--from-literal=a=1")
	i = lw.wait(t, i+1, "ADDED", "during")
	s.MustKubectl(t, "label", "configmap", "during", "-n", "watch-e2e", "x=y")
	i = lw.wait(t, i+1, "MODIFIED", "during")
	s.MustKubectl(t, "delete", "configmap", "during", "-n", "watch-e2e")
	lw.wait(t, i+1, "DELETED", "during")
}

// TestGetChunkSize: kubectl get --chunk-size=N pages through the list with
// limit and continue and shows every object.
func TestGetChunkSize(t *testing.T) {
	s := StartServer(t)
	s.MustKubectl(t, "create", "namespace", "chunks")
	for i := 0; i < 7; i++ {
		s.MustKubectl(t, "create", "configmap", fmt.Sprintf("cm-%d", i), "-n", "chunks")
	}
	r := s.Kubectl(t, "get", "configmaps", "-n", "chunks", "--chunk-size=2", "-o", "name", "-v=6")
	if r.Code != 0 {
		t.Fatalf("kubectl failed:\n%s", r)
	}
	names := strings.Fields(r.Stdout)
	if len(names) != 7 {
		t.Fatalf("got %d objects, want 7:\n%s", len(names), r.Stdout)
	}
	if !strings.Contains(r.Stderr, "limit=2") || !strings.Contains(r.Stderr, "continue=") {
		t.Fatalf("kubectl did not page with limit and continue:\n%s", r.Stderr)
	}
	// The table output pages too.
	out := s.MustKubectl(t, "get", "configmaps", "-n", "chunks", "--chunk-size=3")
	for i := 0; i < 7; i++ {
		WantContains(t, out, fmt.Sprintf("cm-%d", i))
	}
}
