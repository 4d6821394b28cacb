// Package options holds the API server's command-line options, one struct
// per concern (etcd, serving, API behaviour, logging), each with AddFlags,
// Validate and Complete, shown as named groups in --help.
package options
