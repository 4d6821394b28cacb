// Package validation holds the checks every resource shares: name formats
// (DNS subdomain, DNS label, path segment), qualified names for label and
// annotation keys, label values, and the rules for ObjectMeta on create and
// update. Per-resource rules live with each resource's strategy.
package validation
