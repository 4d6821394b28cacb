// Package apiservice is the registry row of apiregistration.platform.io/v1
// apiservices: cluster-scoped, named "<version>.<group>", with upstream's
// validation, a status written only through /status (by the aggregator's
// availability checks), and kubectl's columns. A service-backed APIService
// may not claim a group that the API server serves itself.
package apiservice
