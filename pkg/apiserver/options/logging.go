package options

import componentoptions "platform.io/platform/pkg/component/options"

// Logging configures the zap logger; it is the option every daemon shares.
type Logging = componentoptions.Logging

// NewLogging returns the defaults.
func NewLogging() *Logging { return componentoptions.NewLogging() }
