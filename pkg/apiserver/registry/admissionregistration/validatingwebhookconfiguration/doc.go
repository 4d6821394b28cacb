// Package validatingwebhookconfiguration holds the registry rows of
// ValidatingWebhookConfigurations: admissionregistration.platform.io/v1,
// the storage version, and v1beta1, stored as v1 with v1beta1's defaults
// and its wider sideEffects.
package validatingwebhookconfiguration
