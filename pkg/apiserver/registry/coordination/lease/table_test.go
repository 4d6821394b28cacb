package lease

import (
	"testing"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	"platform.io/client/api/meta"
)

func TestLeaseTableRow(t *testing.T) {
	l := &coordinationv1.Lease{ObjectMeta: meta.ObjectMeta{Name: "scheduler", CreationTimestamp: meta.NewTime(time.Now().Add(-90 * time.Second))}}
	if got := tableColumns.Row(l); len(got) != 3 || got[0] != "scheduler" || got[1] != "" || got[2] != "90s" {
		t.Errorf("free lease cells %q", got)
	}
	holder := "node-1_abc"
	l.Spec.HolderIdentity = &holder
	if got := tableColumns.Row(l); got[1] != holder {
		t.Errorf("held lease cells %q", got)
	}
}
