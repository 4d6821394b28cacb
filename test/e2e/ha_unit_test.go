package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// unit is one process of a simulated host, supervised as systemd's
// Restart=always would: when it exits without having been told to, it is
// started again after haRestartDelay. Its runs share one log.
type unit struct {
	t       *testing.T
	host    *haHost
	name    string
	bin     string
	args    []string
	logPath string

	// mu guards proc, wanted, restarts and closed.
	mu       sync.Mutex
	proc     *Process
	started  time.Time
	wanted   bool
	restarts int
	closed   bool
}

func (u *unit) String() string { return u.host.name + "/" + u.name }

// start runs the unit and keeps it running until kill, terminate or close.
func (u *unit) start() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return errors.New("the test is over")
	}
	u.wanted = true
	return u.startLocked()
}

func (u *unit) startLocked() error {
	p, err := launch(u.String(), u.bin, u.logPath, u.args)
	if err != nil {
		return err
	}
	u.proc, u.started = p, time.Now()
	go u.supervise(p)
	return nil
}

// supervise restarts the unit when p exits while it is wanted.
func (u *unit) supervise(p *Process) {
	<-p.Exited()
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.wanted || u.closed || u.proc != p {
		return
	}
	u.restarts++
	u.t.Logf("%s exited on its own (exit code %d); restarting it in %v as Restart=always would; its last lines:\n%s",
		u, p.ExitCode(), haRestartDelay, tail(u.logPath, 6))
	time.AfterFunc(haRestartDelay, func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		if u.wanted && !u.closed && u.proc == p {
			if err := u.startLocked(); err != nil {
				u.t.Errorf("restart %s: %v", u, err)
			}
		}
	})
}

// current returns the running process, nil when there is none.
func (u *unit) current() *Process {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.proc == nil {
		return nil
	}
	select {
	case <-u.proc.Exited():
		return nil
	default:
		return u.proc
	}
}

// standby reports whether the unit runs and, since it started, has
// logged the lock's holder and not begun to shut down: it campaigns.
func (u *unit) standby() bool {
	u.mu.Lock()
	started := u.started
	u.mu.Unlock()
	if u.current() == nil {
		return false
	}
	since := func(msg string) bool {
		for _, e := range u.logged(msg) {
			if e.time().After(started) {
				return true
			}
		}
		return false
	}
	return since("new leader") && !since("shutting down") && !since("shutting down after a component failed")
}

// release stops supervising and returns the process (nil if none).
func (u *unit) release() *Process {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.wanted = false
	return u.proc
}

// kill sends SIGKILL and waits for the exit; the unit stays down.
func (u *unit) kill() {
	if p := u.release(); p != nil {
		p.Kill()
	}
}

// terminate sends SIGTERM and waits for the exit; the unit stays down.
func (u *unit) terminate() (int, error) {
	p := u.release()
	if p == nil {
		return 0, nil
	}
	return p.Terminate(haStopTimeout)
}

// close stops the unit for good, gracefully if it can.
func (u *unit) close() {
	u.mu.Lock()
	u.closed, u.wanted = true, false
	p := u.proc
	u.mu.Unlock()
	if p != nil {
		p.Stop()
	}
}

// logEntry is one line of a daemon's JSON log.
type logEntry struct {
	TS       float64 `json:"ts"`
	Msg      string  `json:"msg"`
	Identity string  `json:"identity"`
}

func (e logEntry) time() time.Time {
	sec := int64(e.TS)
	return time.Unix(sec, int64((e.TS-float64(sec))*1e9))
}

// logged returns the unit's JSON log entries with message msg.
func (u *unit) logged(msg string) []logEntry {
	data, err := os.ReadFile(u.logPath)
	if err != nil {
		return nil
	}
	var out []logEntry
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, msg) {
			continue
		}
		var e logEntry
		if json.Unmarshal([]byte(line), &e) == nil && e.Msg == msg {
			out = append(out, e)
		}
	}
	return out
}
