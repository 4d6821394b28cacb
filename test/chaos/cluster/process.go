package cluster

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// stopTimeout is how long a SIGTERM may take before SIGKILL.
const stopTimeout = 10 * time.Second

// Process is a binary run again after every Kill: one log file, any
// number of runs.
type Process struct {
	Name    string
	bin     string
	args    []string
	logPath string

	// mu guards cmd and exited.
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// Start runs the process; it must not be running.
func (p *Process) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		return fmt.Errorf("%s is running", p.Name)
	}
	log, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "---- %s start %s\n", time.Now().Format(time.RFC3339Nano), p.Name)
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start %s: %w", p.Name, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		log.Close()
		close(exited)
	}()
	p.cmd, p.exited = cmd, exited
	return nil
}

// Running reports whether the process was started and not killed.
func (p *Process) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// Exited is closed when the current run ends; nil when not running.
func (p *Process) Exited() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exited
}

// Signal sends sig to the running process.
func (p *Process) Signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return fmt.Errorf("%s is not running", p.Name)
	}
	return p.cmd.Process.Signal(sig)
}

// Kill sends SIGKILL (after SIGCONT, in case it is stopped) and waits
// for the process to end.
func (p *Process) Kill() { p.end(syscall.SIGKILL) }

// Stop sends SIGTERM, then SIGKILL after stopTimeout.
func (p *Process) Stop() { p.end(syscall.SIGTERM) }

func (p *Process) end(sig syscall.Signal) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd, p.exited = nil, nil
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGCONT)
	cmd.Process.Signal(sig)
	select {
	case <-exited:
	case <-time.After(stopTimeout):
		cmd.Process.Kill()
		<-exited
	}
}

// LogTail returns the last n lines of the process's log.
func (p *Process) LogTail(n int) string { return tail(p.logPath, n) }
