package apiservice

import (
	apiregv1 "platform.io/client/api/apiregistration/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get apiservices, as upstream
// prints them.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Service", table.TypeString, "The reference to the service that hosts this API endpoint."),
		table.Column("Available", table.TypeString, "Whether this service is available."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		s := obj.(*apiregv1.APIService)
		return []any{s.Name, serviceColumn(s), availableColumn(s), table.Age(&s.ObjectMeta)}
	},
}

// serviceColumn is "namespace/name", or "Local" for a group version the
// API server serves itself.
func serviceColumn(s *apiregv1.APIService) string {
	if s.Spec.Service == nil {
		return "Local"
	}
	return s.Spec.Service.Namespace + "/" + s.Spec.Service.Name
}

// availableColumn is the Available condition's status, with its reason
// when it is not True; "Unknown" before the first check.
func availableColumn(s *apiregv1.APIService) string {
	c := s.Condition(apiregv1.Available)
	switch {
	case c == nil:
		return string(apiregv1.ConditionUnknown)
	case c.Status != apiregv1.ConditionTrue && c.Reason != "":
		return string(c.Status) + " (" + c.Reason + ")"
	}
	return string(c.Status)
}
