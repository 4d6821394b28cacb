package validatingwebhookconfiguration

import (
	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	"platform.io/client/api/meta"

	wv "platform.io/platform/pkg/apiserver/registry/admissionregistration/webhookvalidation"
)

// tableColumns are the columns of kubectl get validatingwebhookconfigurations,
// for an object of either version.
var tableColumns = wv.TableColumns(func(obj meta.Object) int {
	switch c := obj.(type) {
	case *arv1.ValidatingWebhookConfiguration:
		return len(c.Webhooks)
	case *arv1beta1.ValidatingWebhookConfiguration:
		return len(c.Webhooks)
	}
	return 0
})
