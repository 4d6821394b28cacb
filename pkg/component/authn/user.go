package authn

import (
	"context"
	"slices"
)

// Well-known user and group names.
const (
	Anonymous             = "system:anonymous"
	AllUnauthenticated    = "system:unauthenticated"
	AllAuthenticated      = "system:authenticated"
	SystemPrivilegedGroup = "system:masters"
)

// User is who a request comes from.
type User struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// AnonymousUser returns the user of requests that carry no credentials.
func AnonymousUser() *User {
	return &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}
}

// AuthenticatedUser returns u with system:authenticated among its
// groups, copying the group list rather than changing u.
func AuthenticatedUser(u *User) *User {
	if u.Name == Anonymous || slices.Contains(u.Groups, AllAuthenticated) || slices.Contains(u.Groups, AllUnauthenticated) {
		return u
	}
	c := *u
	c.Groups = append(slices.Clip(u.Groups), AllAuthenticated)
	return &c
}

type userKey struct{}

// WithUser returns ctx carrying u.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom returns the user ctx carries.
func UserFrom(ctx context.Context) (*User, bool) {
	u, ok := ctx.Value(userKey{}).(*User)
	return u, ok
}
