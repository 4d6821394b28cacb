package mutatingwebhookconfiguration

import (
	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get mutatingwebhookconfigurations,
// as upstream prints them, for an object of either version.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Webhooks", table.TypeInteger, "The number of webhooks in the configuration."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		n := 0
		switch c := obj.(type) {
		case *arv1.MutatingWebhookConfiguration:
			n = len(c.Webhooks)
		case *arv1beta1.MutatingWebhookConfiguration:
			n = len(c.Webhooks)
		}
		m := obj.GetObjectMeta()
		return []any{m.Name, int64(n), table.Age(m)}
	},
}
