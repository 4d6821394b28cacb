// Package endpoints is the registry row of core/v1 Endpoints: the address
// and port subsets behind a service, with their IPs, names and ports checked.
package endpoints
