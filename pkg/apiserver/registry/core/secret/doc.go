// Package secret is the registry row of core/v1 secrets: stringData is
// folded into data on every write, keys and total size are checked, the
// built-in types must carry their keys, and type and immutable data are fixed.
package secret
