// Package admission is the contract between the generic store and the
// admission plugins: the Attributes of a write, the Mutator and Validator
// interfaces a plugin implements, and the Chain that runs the enabled
// plugins in order (every mutating step first, then every validating one)
// with upstream's per-step metrics. Plugins live in subpackages.
package admission
