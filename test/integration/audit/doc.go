// Package audit tests audit logging on a real API server: events read
// back from the log file and from a webhook server the test runs, at each
// level and stage, rotation, truncation and each backend mode.
package audit
