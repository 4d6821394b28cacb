// Package noderestriction is the NodeRestriction admission plugin: it
// limits what a node (user system:node:<name> in group system:nodes) may
// write to what concerns it: its own Node object (with labels only in the
// node agent's allowed set, and no taint changes), the status and deletion
// of pods bound to it, mirror pods of its own, tokens for its pods, and its
// own Lease. Requests of other users pass untouched.
package noderestriction
