// Package namespace is the namespace loop: a Terminating namespace whose
// spec.finalizers holds "platform" is emptied of every namespaced resource
// the server's discovery lists at that pass, custom resources included
// (one delete collection per resource, or a delete per object where there
// is none), its status conditions report what remains and which groups
// could not be discovered, and once nothing remains and discovery is
// complete the finalizer is removed through the finalize subresource,
// after which the API server removes the namespace.
package namespace
