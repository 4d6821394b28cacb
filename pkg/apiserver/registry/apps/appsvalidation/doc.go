// Package appsvalidation holds the checks and helpers the apps/v1 registry
// packages share: workload selectors, pod templates of controllers,
// int-or-percent rolling-update bounds, immutability and the scale accessor.
package appsvalidation
