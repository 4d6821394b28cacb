// Package crd serves custom resources: it turns a CustomResourceDefinition
// into registry rows (one per served version, stored as JSON under
// /<prefix>/<group>/<plural>/, the versions other than the storage one
// converted through the definition's conversion webhook under the Webhook
// strategy), and runs the controller that accepts a
// definition's names, establishes it, adds and removes its rows at run time
// and deletes its objects before the definition goes.
package crd
