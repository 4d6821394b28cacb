package customresourcedefinition

import (
	"slices"
	"strings"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Resource is the customresourcedefinitions row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: apiextv1.GroupName, Version: "v1", Name: "customresourcedefinitions", Singular: "customresourcedefinition",
		Kind: "CustomResourceDefinition", ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"},
		New:       func() meta.Object { return &apiextv1.CustomResourceDefinition{} },
		HasStatus: true,
		Strategy: registry.Typed[apiextv1.CustomResourceDefinition]{
			DefaultFunc:          SetDefaults,
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         Validate,
			ValidateUpdateFunc:   ValidateUpdate,
			PrepareForDeleteFunc: prepareForDelete,
			DeletionBlockedFunc:  func(crd *apiextv1.CustomResourceDefinition) bool { return crd.DeletionTimestamp == nil },
		},
	}
}

// SetDefaults fills what upstream defaults: the singular name and list
// kind from the kind, the None conversion strategy.
func SetDefaults(crd *apiextv1.CustomResourceDefinition) {
	defaultNames(&crd.Spec.Names)
	defaultNames(&crd.Status.AcceptedNames)
	if crd.Spec.Conversion == nil {
		crd.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.NoneConverter}
	}
}

func defaultNames(n *apiextv1.CustomResourceDefinitionNames) {
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
}

// prepareForCreate starts the status afresh: no conditions, the storage
// version recorded as stored.
func prepareForCreate(crd *apiextv1.CustomResourceDefinition) {
	crd.Status = apiextv1.CustomResourceDefinitionStatus{}
	recordStorageVersion(crd)
}

// prepareForUpdate records a new storage version as stored; the status
// itself is the status subresource's to change.
func prepareForUpdate(crd, _ *apiextv1.CustomResourceDefinition) {
	recordStorageVersion(crd)
}

// recordStorageVersion appends the storage version to storedVersions.
func recordStorageVersion(crd *apiextv1.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Storage && !slices.Contains(crd.Status.StoredVersions, v.Name) {
			crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
		}
	}
}

// prepareForDelete adds the cleanup finalizer and the Terminating condition.
func prepareForDelete(crd *apiextv1.CustomResourceDefinition) {
	if !crd.HasFinalizer(apiextv1.CustomResourceCleanupFinalizer) {
		crd.Finalizers = append(crd.Finalizers, apiextv1.CustomResourceCleanupFinalizer)
	}
	SetCondition(&crd.Status, apiextv1.CustomResourceDefinitionCondition{
		Type: apiextv1.Terminating, Status: apiextv1.ConditionTrue, Reason: "InstanceDeletionPending",
		Message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
	}, meta.Now())
}

// SetCondition sets c in status, keeping the transition time when the
// condition's status does not change.
func SetCondition(status *apiextv1.CustomResourceDefinitionStatus, c apiextv1.CustomResourceDefinitionCondition, now meta.Time) {
	for i := range status.Conditions {
		old := &status.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		c.LastTransitionTime = old.LastTransitionTime
		if old.Status != c.Status || c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = now
		}
		*old = c
		return
	}
	c.LastTransitionTime = now
	status.Conditions = append(status.Conditions, c)
}

// Condition returns the condition of type t, or nil.
func Condition(status *apiextv1.CustomResourceDefinitionStatus, t apiextv1.CustomResourceDefinitionConditionType) *apiextv1.CustomResourceDefinitionCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// IsTrue reports whether condition t is True.
func IsTrue(status *apiextv1.CustomResourceDefinitionStatus, t apiextv1.CustomResourceDefinitionConditionType) bool {
	c := Condition(status, t)
	return c != nil && c.Status == apiextv1.ConditionTrue
}
