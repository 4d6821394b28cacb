// Package podspec holds the defaulting and validation of core/v1 pod specs
// and pod templates, shared by the pods resource and by every workload
// resource (deployments, jobs, ...) that embeds a pod template.
package podspec
