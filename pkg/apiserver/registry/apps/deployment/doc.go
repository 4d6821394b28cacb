// Package deployment is the registry row of apps/v1 deployments: their
// defaults, validation, selector immutability and scale subresource.
package deployment
