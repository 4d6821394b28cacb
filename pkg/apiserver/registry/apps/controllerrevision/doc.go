// Package controllerrevision is the registry row of apps/v1
// controllerrevisions: snapshots whose data is set once at creation; the
// revision number may change when a rollback makes an old revision newest.
package controllerrevision
