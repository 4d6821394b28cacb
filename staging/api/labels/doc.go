// Package labels implements label selectors: the set-based query language of
// the labelSelector query parameter ("app=web,tier in (a,b),!canary"), the Set
// type that holds an object's labels, and conversion from the structured
// meta.LabelSelector found in workload specs.
package labels
