// Package v1beta1 defines the batch/v1beta1 CronJob, the pre-GA form of
// batch/v1 CronJob that older clients still send. Its job template reuses the
// batch/v1 JobSpec, and its fields and tags follow the upstream v1beta1 wire format.
package v1beta1

//go:generate go run ../../../hack/protogen
