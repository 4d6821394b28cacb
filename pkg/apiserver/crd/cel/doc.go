// Package cel compiles and runs the x-kubernetes-validations rules of a
// custom resource's structural schema with cel.dev/cel-go. Compile types
// self (and oldSelf, for transition rules) from each rule's schema node,
// refuses rules whose estimated cost exceeds the limits, and returns a
// Validator whose Validate walks an object (and its old version) and
// reports failed rules as field errors, within a runtime cost budget and
// the request's deadline.
//
// Library: the CEL standard functions plus cel-go's ext.Strings (v2),
// ext.Sets, ext.Lists, ext.TwoVarComprehensions, ext.Network (ip, cidr,
// isIP, isCIDR, as upstream's IP and CIDR libraries), optional types, and
// upstream's lists additions isSorted, sum, min, max, indexOf, lastIndexOf
// and regex additions find and findAll (library.go). Not provided:
// upstream's url, quantity, semver and format libraries.
package cel
