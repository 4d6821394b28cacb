// Package fieldmanager keeps metadata.managedFields, the record of which
// manager owns which fields of an object, and computes server-side apply.
// The merge and field-set algebra are structured-merge-diff's, over the
// server's typed schema; this package only adapts objects and the
// managedFields encoding to it, as upstream's field manager does.
package fieldmanager
