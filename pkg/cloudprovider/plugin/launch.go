package plugin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"go.uber.org/zap"
)

// Restarts of a provider that exits back off from restartBase to
// restartMax; a provider that ran restartReset resets the backoff.
const (
	restartBase  = 200 * time.Millisecond
	restartMax   = 30 * time.Second
	restartReset = time.Minute
	stopGrace    = 5 * time.Second
)

// launcher runs a provider binary, restarting it whenever it exits, until
// its context ends; then it asks it to stop with SIGTERM and kills it after
// stopGrace.
type launcher struct {
	lg       *zap.Logger
	binary   string
	endpoint string
	config   string
}

func (l *launcher) args() []string {
	args := []string{"--endpoint=" + l.endpoint}
	if l.config != "" {
		args = append(args, "--cloud-config="+l.config)
	}
	return args
}

func (l *launcher) run(ctx context.Context) {
	delay := restartBase
	for ctx.Err() == nil {
		start := time.Now()
		err := l.once(ctx)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > restartReset {
			delay = restartBase
		}
		l.lg.Warn("cloud provider exited, restarting", zap.String("binary", l.binary), zap.Duration("after", delay), zap.Error(err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, restartMax)
	}
}

// once runs the binary until it exits or ctx ends.
func (l *launcher) once(ctx context.Context) error {
	cmd := exec.Command(l.binary, l.args()...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	l.lg.Info("cloud provider started", zap.String("binary", l.binary), zap.Int("pid", cmd.Process.Pid))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err == nil {
			err = errors.New("exited with status 0")
		}
		return err
	case <-ctx.Done():
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		return err
	case <-time.After(stopGrace):
		_ = cmd.Process.Kill()
		return <-exited
	}
}
