package scheduler

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// process is a built daemon the benchmark runs, logging JSON to a file.
type process struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	started time.Time
	exited  chan struct{}
}

// binDir is where make build puts the binaries (make bench sets it).
func binDir(b *testing.B) string {
	dir := os.Getenv("PLATFORM_BIN_DIR")
	if dir == "" {
		b.Skip("PLATFORM_BIN_DIR is not set; run `make bench`")
	}
	return dir
}

// startProcess runs the binary bin from binDir as name, until it is
// stopped or the benchmark ends (SIGKILL then). started is taken just
// before the exec.
func startProcess(b *testing.B, dir, bin, name string, args ...string) *process {
	p := &process{name: name, logPath: filepath.Join(dir, name+".log"), exited: make(chan struct{})}
	f, err := os.Create(p.logPath)
	if err != nil {
		b.Fatal(err)
	}
	p.cmd = exec.Command(filepath.Join(binDir(b), bin), args...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.started = time.Now()
	if err := p.cmd.Start(); err != nil {
		b.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = p.cmd.Wait(); f.Close(); close(p.exited) }()
	b.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
		if b.Failed() {
			data, _ := os.ReadFile(p.logPath)
			if len(data) > 4000 {
				data = data[len(data)-4000:]
			}
			b.Logf("%s log tail:\n%s", name, data)
		}
	})
	return p
}

// stop sends sig and waits up to a minute for the exit.
func (p *process) stop(b *testing.B, sig syscall.Signal) {
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.exited:
	case <-time.After(time.Minute):
		b.Fatalf("%s did not exit within a minute of %v", p.name, sig)
	}
}

// cpu returns the CPU time (user and system) the process has used so far.
func (p *process) cpu() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 12th and 13th, in clock ticks of 1/100 s.
	rest := data[bytes.LastIndexByte(data, ')')+2:]
	f := strings.Fields(string(rest))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// logEntry is one line of a daemon's JSON log.
type logEntry map[string]any

func (e logEntry) time() time.Time {
	ts, _ := e["ts"].(float64)
	sec, frac := math.Modf(ts)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// find returns the first log line with message msg whose fields include
// every key and value of with.
func (p *process) find(msg string, with map[string]string) (logEntry, bool) {
	f, err := os.Open(p.logPath)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
next:
	for sc.Scan() {
		var e logEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e["msg"] != msg {
			continue
		}
		for k, v := range with {
			if fmt.Sprint(e[k]) != v {
				continue next
			}
		}
		return e, true
	}
	return nil, false
}

// waitLog waits up to limit for the line find returns.
func (p *process) waitLog(b *testing.B, limit time.Duration, msg string, with map[string]string) logEntry {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for {
		if e, ok := p.find(msg, with); ok {
			return e
		}
		select {
		case <-tick.C:
		case <-p.exited:
			b.Fatalf("%s exited before logging %q %v", p.name, msg, with)
		case <-deadline:
			b.Fatalf("%s did not log %q %v within %s", p.name, msg, with, limit)
		}
	}
}

// lookup returns how long after p's start it logged the line find
// returns, waiting for it a little (a line of a phase that is over may
// still be on its way), or -1 when p does not log it.
func (p *process) lookup(b *testing.B, msg string, with map[string]string) time.Duration {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(2 * time.Second)
	for {
		if e, ok := p.find(msg, with); ok {
			return e.since(p.started)
		}
		select {
		case <-tick.C:
		case <-deadline:
			return -1
		}
	}
}

// since is how long after t the line was logged.
func (e logEntry) since(t time.Time) time.Duration { return e.time().Sub(t) }
