// Package daemon tests the shared daemon runner as operators run it: real
// processes of a small daemon built on it (testdaemon), elected against a
// real API server, killed, paused and stopped with signals.
package daemon
