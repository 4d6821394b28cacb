package registry

import "context"

type warningsKey struct{}

// WithWarnings returns ctx carrying add, which the request's handler uses
// to send a warning to the client (a Warning header).
func WithWarnings(ctx context.Context, add func(msg string)) context.Context {
	return context.WithValue(ctx, warningsKey{}, add)
}

// AddWarning sends msg to the client of ctx's request, if it can take warnings.
func AddWarning(ctx context.Context, msg string) {
	if add, ok := ctx.Value(warningsKey{}).(func(string)); ok {
		add(msg)
	}
}
