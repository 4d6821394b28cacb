package crd

import (
	apiextv1 "platform.io/client/api/apiextensions/v1"

	"platform.io/platform/pkg/apiserver/openapi"
)

// Publisher publishes the served versions of definitions in the server's
// OpenAPI documents.
type Publisher interface {
	// SetCustom publishes owner's versions, replacing what it published.
	SetCustom(owner string, versions []openapi.CustomVersion) error
	// RemoveCustom withdraws what owner published.
	RemoveCustom(owner string)
}

// openAPIVersions pairs each served row of crd with its version's schema.
func openAPIVersions(crd *apiextv1.CustomResourceDefinition, rows *Rows) ([]openapi.CustomVersion, error) {
	out := make([]openapi.CustomVersion, 0, len(rows.Served))
	for _, r := range rows.Served {
		for i := range crd.Spec.Versions {
			if v := &crd.Spec.Versions[i]; v.Name == r.Version {
				s, err := loadSchema(v)
				if err != nil {
					return nil, err
				}
				out = append(out, openapi.CustomVersion{Row: r, Schema: s})
			}
		}
	}
	return out, nil
}
