// Package controlplane keeps the API server's own Service, platform in the
// default namespace, and its Endpoints. Each API server holds a record of
// its advertise address in etcd under a lease it renews; the Endpoints list
// the addresses of the live records, so a server that dies leaves within the
// lease's TTL and one that stops gracefully removes itself at once.
package controlplane
