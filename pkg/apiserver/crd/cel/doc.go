// Package cel runs the x-kubernetes-validations rules of a custom
// resource's structural schema with cel.dev/cel-go. Compile types self
// (and oldSelf, in transition rules) from each rule's schema node, checks
// reason, fieldPath, message and messageExpression, and refuses rules
// whose estimated cost exceeds the limits; the Validator it returns walks
// an object (and its old version on update) and reports failed rules as
// field errors, within a per-call cost limit, a per-request budget and
// the request's deadline. A Validator is safe for concurrent use.
//
// Types: objects with properties are CEL object types (property names
// escaped as upstream: __dash__, __dot__, __slash__, __underscores__,
// __keyword__), additionalProperties maps are map(string, T), arrays are
// list(T) (set and map lists compare without order), integer, number,
// boolean and string map to int, double, bool and string; string formats
// byte, date, date-time and duration map to bytes, timestamp, timestamp
// and duration; x-kubernetes-int-or-string and
// x-kubernetes-preserve-unknown-fields without properties are dyn. The
// root and embedded resources always have apiVersion, kind and
// metadata.name/generateName. Null values read as absent fields.
//
// Library: the CEL standard functions, optional types, cel-go's
// ext.Strings (version 2), ext.Sets, ext.TwoVarComprehensions and
// ext.Network (ip, cidr, isIP, isCIDR: upstream's IP and CIDR libraries),
// and, written here after upstream, the lists functions isSorted, sum,
// min, max, indexOf, lastIndexOf, the regex functions find, findAll, and
// the quantity library (quantity, isQuantity, isInteger, asInteger,
// asApproximateFloat, sign, add, sub, isGreaterThan, isLessThan,
// compareTo) over staging's resource.Quantity, and the URL library (url,
// isURL, getScheme, getHost, getHostname, getPort, getEscapedPath,
// getQuery). Not provided: upstream's semver, format and authz libraries,
// and cel-go's ext.Lists, ext.Math and ext.Encoders.
package cel
