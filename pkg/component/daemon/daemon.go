package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	"platform.io/client/informer"
	"platform.io/client/leaderelection"
	"platform.io/client/record"
	"platform.io/client/rest"
	"platform.io/client/workqueue"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/featuregate"
	"platform.io/platform/pkg/component/metrics"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/component/server"
	"platform.io/platform/pkg/component/version"
)

// Options are a daemon's own option groups.
type Options interface {
	Groups() []cli.NamedFlagSet
	Validate() []error
}

// FileOptions are Options that can be read from a configuration file
// named by one of their flags. The file is applied over the defaults and
// the command line over the file.
type FileOptions interface {
	Options
	// ConfigFile is the file's path, "" for none.
	ConfigFile() string
	// LoadFile fills the daemon's and the shared options, at their
	// defaults, from the file at path.
	LoadFile(path string, shared *options.Options) error
}

// Spec describes a daemon to the runner.
type Spec struct {
	// Name is the binary's name: platform-scheduler, ...
	Name        string
	Short, Long string
	Defaults    options.Defaults
	// NewFeatures returns the daemon's feature gates at their defaults;
	// nil for none, and --feature-gates then rejects every name.
	NewFeatures func() *featuregate.Gate
	// NewOptions returns the daemon's own options at their defaults.
	NewOptions func() Options
	// New builds the daemon's work from its dependencies. It runs before
	// leader election: the informers it declares start at once, so a
	// standby replica keeps warm caches; the returned Runnable runs only
	// while this replica leads.
	New func(ctx context.Context, d *Deps) (run.Runnable, error)
}

// Deps are what the runner gives a daemon.
type Deps struct {
	Logger   *zap.Logger
	Registry prometheus.Registerer
	Shared   *options.Options
	Own      Options
	// Config is the work client's configuration.
	Config *rest.Config
	// REST is the work client. While this replica leads (with a Lease
	// lock), its writes name the lock (rest.LeaderLockHeader) so the API
	// server refuses them once another replica has taken over.
	REST      *rest.Client
	Clients   *client.Set
	Informers *informer.Factory
	Events    *record.Broadcaster
	// Recorder records events as the daemon (source component Spec.Name).
	Recorder record.Recorder
	// Queues reports the daemon's work queues' metrics.
	Queues workqueue.MetricsProvider
	// Server is the secure endpoint, for extra health checks.
	Server *server.Server
	// Identity is this replica's holder identity: hostname + unique id.
	Identity string
	// IsLeader reports whether this replica holds the lock and its term has
	// not run out (always true without leader election). Work with side
	// effects outside the API server can check it just before acting; it
	// turns false as soon as a paused leader's renew deadline has passed,
	// even before the leading context is cancelled.
	IsLeader func() bool

	// fence is what REST's writes carry; the elector fills it in.
	fence *rest.Fence
}

// parsed is one parse of the command line.
type parsed struct {
	shared *options.Options
	own    Options
	groups []cli.NamedFlagSet
}

func (s *Spec) fresh() parsed {
	gate := featuregate.New(nil)
	if s.NewFeatures != nil {
		gate = s.NewFeatures()
	}
	p := parsed{shared: options.New(s.Defaults, gate), own: s.NewOptions()}
	p.groups = append(p.shared.Groups(), p.own.Groups()...)
	return p
}

// Main runs the daemon with args and returns the process exit code: 0 after
// a clean shutdown, 1 on a failure, 2 on bad flags.
func Main(s Spec, args []string) int {
	return Execute(s, args, os.Stdout, os.Stderr)
}

// Execute is Main writing to stdout and stderr.
func Execute(s Spec, args []string, stdout, stderr io.Writer) int {
	if err := NewCommand(s, args, stdout, stderr).Execute(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", s.Name, err)
		if errors.As(err, new(*flagError)) {
			return 2
		}
		return 1
	}
	return 0
}

// NewCommand returns the daemon's command over args, its flags in the
// groups --help shows (cli.Groups lists them, for the flag reference).
// Flag errors it returns make Execute exit with code 2.
func NewCommand(s Spec, args []string, stdout, stderr io.Writer) *cobra.Command {
	p := s.fresh()
	cmd := &cobra.Command{
		Use: s.Name, Short: s.Short, Long: s.Long,
		SilenceUsage: true, SilenceErrors: true, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if p.shared.Version.PrintIfRequested(stdout, s.Name) {
				return nil
			}
			final, err := s.complete(p, args)
			if err != nil {
				return err
			}
			return s.run(cmd.Context(), final)
		},
	}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cli.AddGroups(cmd, p.groups)
	cmd.SetArgs(args)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })
	return cmd
}

// complete applies the configuration file, if the daemon has one and a
// path was given, under the command line, and validates the result.
func (s *Spec) complete(p parsed, args []string) (parsed, error) {
	if fo, ok := p.own.(FileOptions); ok && fo.ConfigFile() != "" {
		q := s.fresh()
		if err := q.own.(FileOptions).LoadFile(fo.ConfigFile(), q.shared); err != nil {
			return p, &flagError{fmt.Errorf("--config %s: %w", fo.ConfigFile(), err)}
		}
		fs := pflag.NewFlagSet(s.Name, pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, g := range q.groups {
			fs.AddFlagSet(g.Set)
		}
		if err := fs.Parse(args); err != nil {
			return p, &flagError{err}
		}
		p = q
	}
	errs := append(p.shared.Validate(), p.own.Validate()...)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, err := range errs {
			msgs[i] = err.Error()
		}
		return p, &flagError{errors.New(strings.Join(msgs, "; "))}
	}
	return p, nil
}

// flagError marks an error in the flags or configuration file.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

// run builds the dependencies and runs the daemon until shutdown.
func (s *Spec) run(ctx context.Context, p parsed) error {
	lg, err := p.shared.Logging.Build()
	if err != nil {
		return err
	}
	defer lg.Sync() //nolint:errcheck // stderr sync fails on terminals
	lg = lg.Named(s.Name)
	lg.Info("starting", zap.String("version", version.Get().GitVersion))

	d, err := s.deps(ctx, lg, p)
	if err != nil {
		return err
	}
	built, err := s.New(ctx, d)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	work := afterSync(d.Informers, built)
	rcfg := run.Config{Server: d.Server}
	// The informers start before any component runs: work that waits for
	// them to sync must never find none started (WaitForCacheSync waits
	// only for started ones). They stop with the components.
	informerCtx, stopInformers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopInformers()
	d.Informers.Start(informerCtx)
	components := []run.Runnable{run.Func(func(ctx context.Context) error {
		<-ctx.Done()
		stopInformers()
		d.Informers.Shutdown()
		return nil
	})}
	if p.shared.LeaderElection.LeaderElect {
		el, err := newElection(lg, d, p.shared.LeaderElection, s.Name, work)
		if err != nil {
			return err
		}
		components = append(components, el)
		rcfg.StopLeading = el.stop
	} else {
		components = append(components, work)
	}
	rcfg.Components = components
	rcfg.Drain = func(ctx context.Context) error { return drainEvents(ctx, lg, d.Events) }
	return run.Run(ctx, lg, rcfg)
}

// EventDrainTimeout bounds the flush of the events still queued at
// shutdown. Events describe; losing the last few is better than a late
// exit, and a daemon whose API server is unreachable (often why it lost its
// lease) would otherwise wait out the recorder's retries, ten seconds
// apart.
const EventDrainTimeout = 2 * time.Second

// drainEvents flushes the queued events for EventDrainTimeout at most, then
// drops the rest; it never fails the shutdown.
func drainEvents(ctx context.Context, lg *zap.Logger, events *record.Broadcaster) error {
	ctx, cancel := context.WithTimeout(ctx, EventDrainTimeout)
	defer cancel()
	if err := events.Shutdown(ctx); err != nil {
		lg.Warn("events still queued at shutdown were dropped", zap.Duration("waited", EventDrainTimeout), zap.Error(err))
	}
	return nil
}

// deps builds everything the daemon is given.
func (s *Spec) deps(ctx context.Context, lg *zap.Logger, p parsed) (*Deps, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg, err := p.shared.Generic.RESTConfig()
	if err != nil {
		return nil, &flagError{err}
	}
	if cfg.Metrics, err = metrics.NewRESTClient(reg); err != nil {
		return nil, err
	}
	cfg.UserAgent = version.Get().UserAgent(s.Name)
	rc, err := rest.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("API client: %w", err)
	}
	p.shared.Authentication.UserAgent = cfg.UserAgent
	p.shared.Authorization.UserAgent = cfg.UserAgent
	var scfg server.Config
	if err := p.shared.ApplyTo(ctx, lg, reg, &scfg); err != nil {
		return nil, err
	}
	srv, err := server.New(lg, reg, scfg)
	if err != nil {
		return nil, err
	}
	queues, err := metrics.NewWorkqueue(reg)
	if err != nil {
		return nil, err
	}
	identity, err := leaderelection.NewIdentity()
	if err != nil {
		return nil, err
	}
	events := record.NewBroadcaster(record.Options{OnError: func(ev *corev1.Event, err error) {
		lg.Debug("event dropped", zap.String("reason", ev.Reason), zap.Error(err))
	}})
	// Events get their own rate limit: under load they are dropped when
	// their queue is full instead of taking tokens from the work.
	// Events are not fenced: they describe, and a stale leader's are harmless.
	events.StartRecordingToSink(context.WithoutCancel(ctx), record.NewRESTSink(rc.WithOwnRateLimit()))
	host, _ := os.Hostname()
	fence := &rest.Fence{}
	work := rc.WithFence(fence)
	return &Deps{
		Logger: lg, Registry: reg, Shared: p.shared, Own: p.own,
		Config: cfg, REST: work, Clients: client.NewSet(work), fence: fence,
		// A failed list or watch is retried with backoff; it is logged, as
		// an informer that cannot list or watch (a 403) never catches up.
		Informers: informer.NewFactory(informer.Options{Reflector: informer.ReflectorOptions{
			OnError: func(err error) { lg.Warn("informer list or watch failed; retrying", zap.Error(err)) },
		}}),
		Events:   events,
		Recorder: events.NewRecorder(corev1.EventSource{Component: s.Name, Host: host}),
		Queues:   queues, Server: srv, Identity: identity,
		IsLeader: func() bool { return true },
	}, nil
}

// WithREST returns a copy of d whose work client (REST, Clients) is rc,
// its writes fenced by d's leader lock like d's own: for a part of the
// daemon that acts on another identity (a controller loop on its service
// account). The informers, events and everything else are d's: informers
// declared through the copy's Clients list and watch with d's own
// credentials, since they are shared by every part of the daemon.
func (d *Deps) WithREST(rc *rest.Client) *Deps {
	c := *d
	c.REST = rc.WithFence(d.fence)
	c.Clients = client.NewSet(c.REST).InformThrough(d.Clients)
	return &c
}

// afterSync runs work once every declared informer has synced.
func afterSync(f *informer.Factory, work run.Runnable) run.Runnable {
	return run.Func(func(ctx context.Context) error {
		if !f.WaitForCacheSync(ctx) {
			if ctx.Err() != nil {
				return nil
			}
			return errors.New("informers did not sync")
		}
		return work.Run(ctx)
	})
}
