// Package leaderelection holds the integration tests of the staging
// leader election (platform.io/client/leaderelection): candidates run
// against a real API server, over every lock kind, with short durations,
// and every unit of work their leaders do is logged to check that two
// leaders never act at once.
package leaderelection
