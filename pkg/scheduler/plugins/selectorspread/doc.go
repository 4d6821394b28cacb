// Package selectorspread is the SelectorSpread scheduler plugin: it scores
// nodes higher the fewer pods of the incoming pod's controller (same
// controller ownerReference) they and their zones hold, spreading one
// owner's pods across nodes and zones.
package selectorspread
