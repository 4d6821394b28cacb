// Package auditctx lets the parts of the handler chain add to the audit
// event of the request they serve (annotations, the impersonated user)
// without depending on the audit package: the audit filter puts a
// Recorder in the request's context, and a request that is not audited
// has none, so the calls do nothing.
package auditctx
