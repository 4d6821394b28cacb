// Package endpoints serves the resource API over HTTP: it parses a request
// path into a RequestInfo, finds the registry Store of the resource, and runs
// the one generic handler of the verb (get, list, create, update, patch,
// delete, deletecollection and the status, scale and action subresources).
// It also serves discovery. Every failure is written as a Status.
package endpoints
