// Package nsobjects reads, for an admission plugin, the objects of one
// resource in a namespace (the LimitRanges or ResourceQuotas that apply to
// a write). Reads come from the watch cache; when it holds none, a
// consistent read makes sure a namespace's first object is not missed for
// lagging behind, and its empty answer is remembered for a while, as
// upstream's plugins do, so namespaces without any cost one read per TTL.
package nsobjects
