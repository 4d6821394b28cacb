package mutatingwebhookconfiguration

import (
	"testing"
	"time"

	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	"platform.io/client/api/meta"
)

func TestTableRow(t *testing.T) {
	m := meta.ObjectMeta{Name: "hooks", CreationTimestamp: meta.NewTime(time.Now().Add(-90 * time.Second))}
	for _, obj := range []meta.Object{
		&arv1.MutatingWebhookConfiguration{ObjectMeta: m, Webhooks: make([]arv1.MutatingWebhook, 2)},
		&arv1beta1.MutatingWebhookConfiguration{ObjectMeta: m, Webhooks: make([]arv1.MutatingWebhook, 2)},
	} {
		if got := tableColumns.Row(obj); len(got) != 3 || got[0] != "hooks" || got[1] != int64(2) || got[2] != "90s" {
			t.Errorf("%T cells %v", obj, got)
		}
	}
}
