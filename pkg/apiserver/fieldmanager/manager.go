package fieldmanager

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// maxManagerLength bounds a fieldManager name, as upstream.
const maxManagerLength = 128

// DefaultManager names the manager of writes that carry neither a
// fieldManager nor a User-Agent: writes the server makes itself.
const DefaultManager = "platform-apiserver"

// ManagerFor returns the field manager of a request: the fieldManager
// parameter if given, else the User-Agent up to its first '/', which is
// how each daemon's writes appear under its own name (a User-Agent of
// "platform-scheduler/v1.2.3 (linux/amd64)" gives "platform-scheduler").
func ManagerFor(fieldManager, userAgent string) (string, error) {
	if fieldManager != "" {
		if len(fieldManager) > maxManagerLength {
			return "", fmt.Errorf("fieldManager: Too long: may not be more than %d bytes", maxManagerLength)
		}
		for _, r := range fieldManager {
			if !unicode.IsPrint(r) {
				return "", fmt.Errorf("fieldManager: Invalid value: %q: must only contain printable characters", fieldManager)
			}
		}
		return fieldManager, nil
	}
	name, _, _ := strings.Cut(userAgent, "/")
	name = strings.TrimSpace(name)
	if len(name) > maxManagerLength {
		name = name[:maxManagerLength]
	}
	return name, nil
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
