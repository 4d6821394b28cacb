// Package abac is the ABAC authorization mode (--authorization-policy-file):
// a file of abac.authorization.platform.io/v1beta1 Policy objects, one JSON
// object per line. A request matching any policy is allowed; any other gets
// NoOpinion, never a denial. The file is read once, when the mode is built;
// a line that does not parse fails the load and names its line number.
package abac
