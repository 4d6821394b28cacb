// Package v1 holds the autoscaling/v1 kinds: HorizontalPodAutoscaler (served
// by conversion from its autoscaling/v2 storage form) and Scale,
// the body of the /scale subresource of Deployments, ReplicaSets, StatefulSets and scalable custom
// resources. Field names and numbers follow upstream's autoscaling/v1.
package v1

//go:generate go run ../../../hack/protogen
