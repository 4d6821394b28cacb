package webhookvalidation

import (
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// TableColumns are the columns kubectl get prints for either
// configuration kind, as upstream prints them: name, the number of
// webhooks (webhooks counts them in an object of any served version) and
// age.
func TableColumns(webhooks func(obj meta.Object) int) *registry.TableColumns {
	return &registry.TableColumns{
		Columns: []meta.TableColumnDefinition{
			table.NameColumn(),
			table.Column("Webhooks", table.TypeInteger, "The number of webhooks in the configuration."),
			table.AgeColumn(),
		},
		Row: func(obj meta.Object) []any {
			m := obj.GetObjectMeta()
			return []any{m.Name, int64(webhooks(obj)), table.Age(m)}
		},
	}
}
