// Package controller holds what the controller manager's loops share: the
// Descriptor each loop registers (name, flags, constructor, default on or
// off) and the Context a loop is built from. Each loop lives in a package
// of its own under pkg/controller/<name>; cmd/controller-manager/app holds
// the table of descriptors that --controllers selects from.
package controller
