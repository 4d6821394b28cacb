package namespace

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestNamespaceTableRow(t *testing.T) {
	ns := &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: "team-a", CreationTimestamp: meta.NewTime(time.Now().Add(-26 * time.Hour))}}
	ns.Status.Phase = corev1.NamespaceTerminating
	got := tableColumns.Row(ns)
	if len(got) != 3 || got[0] != "team-a" || got[1] != "Terminating" || got[2] != "26h" {
		t.Errorf("cells %q", got)
	}
}
