// Package namespace is the namespace loop: a Terminating namespace whose
// spec.finalizers holds "platform" is emptied of every namespaced resource
// (one delete collection per resource), its status conditions report what
// remains, and once nothing remains the finalizer is removed through the
// finalize subresource, after which the API server removes the namespace.
package namespace
