// Command testdaemon is a daemon built on the shared runner whose only
// work is to record acts: while it leads, it appends "<identity> <unix
// nanoseconds>" to --act-log every --act-interval, each act guarded by
// IsLeader. The leader-election tests run several of them and read the log.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
)

type actOptions struct {
	log      string
	interval time.Duration
}

func (o *actOptions) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{cli.Group("Acts", func(fs *pflag.FlagSet) {
		fs.StringVar(&o.log, "act-log", o.log, "File to append acts to.")
		fs.DurationVar(&o.interval, "act-interval", o.interval, "Time between acts.")
	})}
}

func (o *actOptions) Validate() []error {
	if o.log == "" || o.interval <= 0 {
		return []error{fmt.Errorf("--act-log and a positive --act-interval are required")}
	}
	return nil
}

func main() {
	os.Exit(daemon.Main(daemon.Spec{
		Name:       "testdaemon",
		Defaults:   options.Defaults{Name: "testdaemon", QPS: 50, Burst: 100, LeaseName: "testdaemon"},
		NewOptions: func() daemon.Options { return &actOptions{interval: 50 * time.Millisecond} },
		New: func(_ context.Context, d *daemon.Deps) (run.Runnable, error) {
			o := d.Own.(*actOptions)
			f, err := os.OpenFile(o.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			return run.Func(func(ctx context.Context) error {
				defer f.Close()
				t := time.NewTicker(o.interval)
				defer t.Stop()
				for {
					select {
					case <-ctx.Done():
						return nil
					case <-t.C:
					}
					if !d.IsLeader() || ctx.Err() != nil {
						continue
					}
					if _, err := fmt.Fprintf(f, "%s %d\n", d.Identity, time.Now().UnixNano()); err != nil {
						return err
					}
				}
			}), nil
		},
	}, os.Args[1:]))
}
