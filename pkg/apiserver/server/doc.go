// Package server assembles the API server from completed options: it
// connects to etcd (or starts the embedded member), builds one registry
// Store per resource, wraps the resource handler in the filter chain, and
// serves it with health, metrics, version and OpenAPI endpoints over HTTPS.
package server
