// Package defaulttolerationseconds is the DefaultTolerationSeconds
// admission plugin: every pod tolerates the not-ready and unreachable
// NoExecute taints for a configured time (300s by default) unless its spec
// already says how long, so the node lifecycle controller evicts pods from
// a lost node after that time.
package defaulttolerationseconds
