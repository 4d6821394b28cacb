package admission

import "context"

// Interface is what every plugin implements.
type Interface interface {
	// Handles reports whether the plugin acts on op at all.
	Handles(op Operation) bool
}

// Mutator is a plugin that may change the object before it is validated
// and stored. It runs before every Validator. Admit must be idempotent: the
// chain may run it twice on one request (see Attributes.RequestReinvocation).
type Mutator interface {
	Interface
	Admit(ctx context.Context, a *Attributes) error
}

// Validator is a plugin that accepts or refuses the final object; it must
// not change it. Validators run after the store's own validation, just
// before the write, and again on each retry of a write that lost a race.
type Validator interface {
	Interface
	Validate(ctx context.Context, a *Attributes) error
}

// Admitter is what the store calls: the whole chain, or nothing.
type Admitter interface {
	Admit(ctx context.Context, a *Attributes) error
	Validate(ctx context.Context, a *Attributes) error
}

var (
	_ Admitter = (*Chain)(nil)
)
