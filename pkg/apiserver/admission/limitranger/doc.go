// Package limitranger is the LimitRanger admission plugin. On pod
// creates in a namespace with LimitRanges it fills each container's unset
// requests and limits from the Container items' defaultRequest and
// default (noting what it set in the platform.io/limit-ranger
// annotation), then refuses pods whose containers, or whose totals, are
// outside an item's min and max or above its maxLimitRequestRatio, with
// upstream's messages. Pod updates cannot change resources and are not
// looked at.
package limitranger
