// Package client is the typed and the dynamic client of the API server,
// built on package rest.
//
// A Client[T, PT] serves one resource with objects of one Go type: a
// Resource descriptor says where the resource lives (group, version, plural
// name, kind, scope, subresources), New binds it to a rest.Client, and
// Namespace scopes it. A Set holds one Client per resource the API server
// serves; Resources is the table those clients are built from, and the place
// other packages look resources and kinds up. Dynamic serves any resource
// with Unstructured objects, and (Dynamic.Metadata) reduced to their
// metadata, for caches of resources known only from discovery.
//
// Guarantees:
//
//   - Requests go where the server serves them: the paths are rest's, with
//     the descriptor's group, version and plural name, the namespace the
//     client is scoped to and the subresource of the call.
//   - A namespaced resource needs a namespace for every call but List and
//     Watch (where none means all namespaces), and a cluster-scoped one
//     takes none; a call on the wrong scope, a subresource the descriptor
//     does not list (or, for a typed Patch, any but status, the one that
//     answers with the object), or a nil object fails before anything is
//     sent. The dynamic client checks scope and subresources of the
//     resources in Resources only.
//   - Objects go out in the rest.Client's content type, protobuf by default;
//     an object whose kind or apiVersion is empty is sent with the
//     descriptor's, and the caller's object is never modified. Responses are
//     decoded by the Content-Type the server sends, into new objects.
//   - List[T] decodes from JSON and from protobuf (ListMeta in field 1, each
//     item in field 2), whatever the list's kind.
//   - A failure the server reports is returned as rest returns it, a
//     *errors.StatusError, so its message is the server's; every other
//     failure is wrapped with the call and the resource.
//   - A watch delivers events in the server's order, each object decoded
//     into a new value; an ERROR event carries the server's Status, and a
//     stream that cannot be read or decoded ends with one last ERROR event
//     whose Status is an InternalError. The result channel is closed when
//     the stream ends, the context is done or Stop is called, and no
//     goroutine outlives that.
//   - The dynamic client speaks JSON only: it asks for application/json and
//     sends its objects as JSON, whatever the rest.Client's content type.
//
// Nothing here keeps package state; clients are safe for concurrent use and
// scoping one returns a new client.
package client
