package options

import (
	"fmt"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// Logging configures the zap logger.
type Logging struct {
	Format    string
	Verbosity int
}

// NewLogging returns the defaults.
func NewLogging() *Logging { return &Logging{Format: "text"} }

// AddFlags registers the logging flags.
func (o *Logging) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Format, "log-format", o.Format, "Log format: text or json.")
	fs.IntVarP(&o.Verbosity, "v", "v", o.Verbosity, "Log verbosity: 0 logs info and above, 1 or more adds debug messages.")
}

// Validate checks the logging options.
func (o *Logging) Validate() []error {
	var errs []error
	if o.Format != "text" && o.Format != "json" {
		errs = append(errs, fmt.Errorf("--log-format: %q is not text or json", o.Format))
	}
	if o.Verbosity < 0 {
		errs = append(errs, fmt.Errorf("-v: %d must not be negative", o.Verbosity))
	}
	return errs
}

// Level is the least level logged.
func (o *Logging) Level() zapcore.Level {
	if o.Verbosity > 0 {
		return zapcore.DebugLevel
	}
	return zapcore.InfoLevel
}

// Build returns the logger the options describe, writing to stderr.
func (o *Logging) Build() (*zap.Logger, error) {
	cfg := zap.NewProductionConfig()
	if o.Format == "text" {
		cfg.Encoding = "console"
		cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
		cfg.EncoderConfig.EncodeLevel = zapcore.CapitalLevelEncoder
	}
	cfg.Sampling = nil
	cfg.Level = zap.NewAtomicLevelAt(o.Level())
	return cfg.Build()
}
