package cronjob

import (
	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get cronjobs, in both versions.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Schedule", table.TypeString, "The cron schedule jobs are created on."),
		table.Column("Timezone", table.TypeString, "The time zone of the schedule."),
		table.Column("Suspend", table.TypeBoolean, "Whether future runs are suspended."),
		table.Column("Active", table.TypeInteger, "The number of jobs currently running."),
		table.Column("Last Schedule", table.TypeString, "Time since a job was last scheduled."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
		table.SelectorColumn("The labels of the pods the jobs run."),
	},
	Row: func(obj meta.Object) []any {
		switch c := obj.(type) {
		case *batchv1.CronJob:
			return tableRow(&c.ObjectMeta, &c.Spec, len(c.Status.Active), c.Status.LastScheduleTime)
		case *batchv1beta1.CronJob:
			spec := toV1(&c.Spec)
			return tableRow(&c.ObjectMeta, &spec, len(c.Status.Active), c.Status.LastScheduleTime)
		}
		return nil
	},
}

func tableRow(m *meta.ObjectMeta, spec *batchv1.CronJobSpec, active int, last *meta.Time) []any {
	lastSchedule := table.None
	if last != nil {
		lastSchedule = table.Since(last.Time)
	}
	tz := table.None
	if spec.TimeZone != nil {
		tz = *spec.TimeZone
	}
	job := &spec.JobTemplate.Spec
	names, images := table.Containers(job.Template.Spec.Containers)
	return []any{
		m.Name, spec.Schedule, tz, table.Bool(spec.Suspend), int64(active), lastSchedule, table.Age(m),
		names, images, table.Selector(job.Selector),
	}
}
