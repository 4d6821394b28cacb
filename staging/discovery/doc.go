// Package discovery reads what the API server serves from its discovery
// documents (/api, /apis and each group version) and keeps it as a Set
// that controllers refresh on demand or on a period. Unlike the client
// package's static Resources table, it sees every resource the server
// serves right now: custom resources once their definition is
// established, and aggregated APIs.
//
// A group version whose document cannot be read is reported in the
// snapshot's Failed, with the resources it had when last read kept, so a
// consumer goes on with the groups it has; only a failure of /api or /apis
// fails a refresh.
package discovery
