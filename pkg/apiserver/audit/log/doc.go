// Package log is the audit log backend: each event is one line, either a
// JSON Event (--audit-log-format=json) or upstream's one-line text
// (legacy), written to a file (rotated by lumberjack, set up by the
// options) or standard output. A failed write is counted and logged, and
// reported to the caller, which fails the request in blocking-strict mode.
package log
