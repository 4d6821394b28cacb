// Package service is the registry row of core/v1 services: upstream's
// defaults, the clusterIP/clusterIPs/ipFamilies bookkeeping done on writes
// (without allocating addresses or node ports), and service validation.
package service
