// Package controllerrevision is the registry row of apps/v1
// controllerrevisions: immutable snapshots whose data and revision are set
// once at creation.
package controllerrevision
