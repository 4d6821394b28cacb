// Package gc holds the integration tests of the garbage collector,
// namespace and serviceaccount loops against a real API server, with no
// other loop running: owner chains built by hand and deleted with each
// propagation policy, dangling references, a namespace of thousands of
// objects deleted, and the default ServiceAccount.
package gc
