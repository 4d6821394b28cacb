// Package component tests the daemons' shared secure endpoint against a
// real API server and against a fake review backend: delegated
// authentication (tokens, client certificates, front-proxy headers, the
// cluster's published settings) and delegated authorization (allowed,
// denied, cached, always-allowed paths).
package component
