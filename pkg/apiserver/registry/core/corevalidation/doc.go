// Package corevalidation holds checks shared by the core/v1 registry
// packages other than pods: IP addresses and CIDRs, port numbers, names
// and protocols, config map and secret keys, resource names and
// quantities (shared with pods, limit ranges and quotas), and
// immutability helpers.
package corevalidation
