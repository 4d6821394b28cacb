package fieldmanager

import (
	"context"
	"strings"
)

// DefaultManager names the manager of writes made without a request: the
// server's own.
const DefaultManager = "platform-apiserver"

// ManagerFor returns the field manager of a request: the fieldManager
// parameter if given (the handler validates it), else the User-Agent up to
// its first '/', as upstream derives it. That is how each daemon's writes
// appear under its own name: a User-Agent of
// "platform-scheduler/v1.2.3 (linux/amd64) platform/abc1234" gives
// "platform-scheduler".
func ManagerFor(fieldManager, userAgent string) string {
	if fieldManager != "" {
		return fieldManager
	}
	name, _, _ := strings.Cut(userAgent, "/")
	return name
}

type managerKey struct{}

// WithManager returns ctx carrying the field manager of its request.
func WithManager(ctx context.Context, manager string) context.Context {
	return context.WithValue(ctx, managerKey{}, manager)
}

// ManagerFrom returns the field manager ctx carries, or DefaultManager.
func ManagerFrom(ctx context.Context) string {
	if m, ok := ctx.Value(managerKey{}).(string); ok {
		return m
	}
	return DefaultManager
}
