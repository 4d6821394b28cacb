// Package configmap is the registry row of core/v1 config maps: key and
// size checks on data and binaryData, and the `immutable` flag that freezes
// both once set.
package configmap
