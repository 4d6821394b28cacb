// Package rbac tests mode RBAC on a real API server: the bootstrap policy
// after start, decisions on real requests as bindings change, escalation
// prevention over HTTP, and the rbac group served like any other. Until
// the authentication and authorization options are wired into the server,
// the test puts a bearer-token table and the RBAC authorizer in front of
// the server's handler itself.
package rbac
