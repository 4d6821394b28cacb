// Package v2 defines the autoscaling/v2 HorizontalPodAutoscaler, the
// storage version of the kind (autoscaling/v1 is served by conversion).
// Field names, JSON tags and protobuf numbers follow upstream's
// autoscaling/v2 wire format so existing clients decode these objects.
package v2

//go:generate go run ../../../hack/protogen
