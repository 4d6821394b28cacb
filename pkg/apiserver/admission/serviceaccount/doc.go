// Package serviceaccount is the ServiceAccount admission plugin: a new pod
// runs as a service account that exists (named `default` when the pod names
// none), and unless automounting is turned off it gets a projected volume
// with a bound token, the cluster's root CA and its namespace, mounted in
// every container. Mirror pods are neither changed nor allowed to use
// service accounts, secrets or tokens.
package serviceaccount
