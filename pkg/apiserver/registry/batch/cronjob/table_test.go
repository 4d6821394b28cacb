package cronjob

import (
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestCronJobTableRow(t *testing.T) {
	created := meta.NewTime(time.Now().Add(-49 * time.Hour))
	last := meta.NewTime(time.Now().Add(-4 * time.Minute))
	tz, suspend := "Europe/Berlin", true
	v1 := &batchv1.CronJob{ObjectMeta: meta.ObjectMeta{Name: "backup", CreationTimestamp: created}}
	v1.Spec.Schedule = "*/5 * * * *"
	v1.Spec.JobTemplate.Spec.Template.Spec.Containers = []corev1.Container{{Name: "backup", Image: "restic"}}
	check := func(got, want []any) {
		t.Helper()
		if len(got) != len(tableColumns.Columns) {
			t.Fatalf("%d cells", len(got))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("cells %q, want %q", got, want)
			}
		}
	}
	check(tableColumns.Row(v1), []any{"backup", "*/5 * * * *", "<none>", "<unset>", int64(0), "<none>", "2d1h", "backup", "restic", "<none>"})

	v1.Spec.TimeZone, v1.Spec.Suspend = &tz, &suspend
	v1.Status.Active = []corev1.ObjectReference{{Name: "backup-1"}, {Name: "backup-2"}}
	v1.Status.LastScheduleTime = &last
	check(tableColumns.Row(v1), []any{"backup", "*/5 * * * *", "Europe/Berlin", "True", int64(2), "4m", "2d1h", "backup", "restic", "<none>"})

	beta := &batchv1beta1.CronJob{ObjectMeta: v1.ObjectMeta}
	beta.Spec.Schedule, beta.Spec.TimeZone, beta.Spec.Suspend = "0 3 * * *", &tz, &suspend
	beta.Spec.JobTemplate.Spec.Template.Spec.Containers = v1.Spec.JobTemplate.Spec.Template.Spec.Containers
	beta.Status.LastScheduleTime = &last
	check(tableColumns.Row(beta), []any{"backup", "0 3 * * *", "Europe/Berlin", "True", int64(0), "4m", "2d1h", "backup", "restic", "<none>"})
}
