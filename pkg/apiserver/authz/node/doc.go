// Package node is the Node authorization mode. A node, the user
// system:node:<name> in group system:nodes, may read the pods bound to it
// and the secrets, config maps, persistent volume claims and service
// accounts those pods reference, and may write its own Node, its own Lease
// in platform-node-lease, its pods' status, evictions and deletions of its
// pods, and events. Everything else, and every other user, gets NoOpinion:
// the rest of a node's rights come from RBAC's system:node role.
//
// What a node may read follows a graph kept from the API server's own
// watch of pods (a PodSource): binding a pod grants its references to the
// node, deleting it (or moving it off the node) revokes them.
package node
