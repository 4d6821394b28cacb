// Package status writes the API Status bodies the secure endpoints of the
// daemons answer failures with (401, 403, 500), as JSON in upstream's shape
// so clients read them like any API server error.
package status
