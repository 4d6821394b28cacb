package e2e

import (
	"strings"
	"testing"
)

// cronJobManifest is a CronJob in apiVersion (batch/v1 or batch/v1beta1);
// extra is added to its spec as is.
func cronJobManifest(apiVersion, name, schedule, extra string) string {
	return strings.NewReplacer("APIVERSION", apiVersion, "NAME", name, "SCHEDULE", schedule, "EXTRA\n", extra).Replace(`apiVersion: APIVERSION
kind: CronJob
metadata:
  name: NAME
spec:
  schedule: "SCHEDULE"
EXTRA
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: backup
            image: busybox:1.36
            command: ["sh", "-c", "echo backup"]
`)
}

func TestCronJobs(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	t.Run("create v1beta1", func(t *testing.T) {
		s.Expect(t, "cronjob.batch/nightly created", "create", "-f", WriteManifest(t, cronJobManifest("batch/v1beta1", "nightly", "0 3 * * *", "")))
	})
	s.RequireObject(t, "cronjobs.v1beta1.batch", "nightly")

	t.Run("defaults v1beta1", func(t *testing.T) {
		cj := s.GetJSON(t, "get", "cronjobs.v1beta1.batch", "nightly")
		WantField(t, cj, "batch/v1beta1", "apiVersion")
		WantField(t, cj, "CronJob", "kind")
		WantField(t, cj, "0 3 * * *", "spec", "schedule")
		WantField(t, cj, "Allow", "spec", "concurrencyPolicy")
		WantField(t, cj, false, "spec", "suspend")
		WantField(t, cj, 3, "spec", "successfulJobsHistoryLimit")
		WantField(t, cj, 1, "spec", "failedJobsHistoryLimit")
		WantField(t, cj, "OnFailure", "spec", "jobTemplate", "spec", "template", "spec", "restartPolicy")
		WantField(t, cj, "ClusterFirst", "spec", "jobTemplate", "spec", "template", "spec", "dnsPolicy")
	})

	t.Run("zero history kept", func(t *testing.T) {
		s.Expect(t, "cronjob.batch/keep-none created", "create", "-f",
			WriteManifest(t, cronJobManifest("batch/v1beta1", "keep-none", "*/5 * * * *", "  successfulJobsHistoryLimit: 0\n")))
		cj := s.GetJSON(t, "get", "cronjobs.v1beta1.batch", "keep-none")
		WantField(t, cj, 0, "spec", "successfulJobsHistoryLimit")
		WantField(t, cj, 1, "spec", "failedJobsHistoryLimit")
		WantField(t, s.GetJSON(t, "get", "cronjobs.v1.batch", "keep-none"), 0, "spec", "successfulJobsHistoryLimit")
	})

	t.Run("read as v1", func(t *testing.T) {
		out := s.MustKubectl(t, "get", "cronjobs.v1.batch", "nightly")
		WantHeader(t, out, "NAME")
		TableRow(t, out, "nightly")
		cj := s.GetJSON(t, "get", "cronjobs.v1.batch", "nightly")
		WantField(t, cj, "batch/v1", "apiVersion")
		WantField(t, cj, "CronJob", "kind")
		WantField(t, cj, "0 3 * * *", "spec", "schedule")
		WantField(t, cj, "Allow", "spec", "concurrencyPolicy")
		WantField(t, cj, false, "spec", "suspend")
		WantField(t, cj, 3, "spec", "successfulJobsHistoryLimit")
		WantField(t, cj, 1, "spec", "failedJobsHistoryLimit")
		names := ItemNames(t, s.GetJSON(t, "get", "cronjobs"))
		if strings.Join(names, ",") != "keep-none,nightly" {
			t.Errorf("get cronjobs: items %q, want [keep-none nightly]", names)
		}
	})

	t.Run("invalid schedule", func(t *testing.T) {
		r := s.KubectlFails(t, "create", "-f", WriteManifest(t, cronJobManifest("batch/v1", "bad", "not a schedule", "")))
		WantContains(t, r.Stderr, `The CronJob "bad" is invalid`, "spec.schedule: Invalid value")
	})

	t.Run("apply twice", func(t *testing.T) {
		s.Expect(t, "cronjob.batch/hourly created", "apply", "-f", WriteManifest(t, cronJobManifest("batch/v1", "hourly", "0 * * * *", "")))
		s.Expect(t, "cronjob.batch/hourly configured", "apply", "-f", WriteManifest(t, cronJobManifest("batch/v1", "hourly", "30 * * * *", "  suspend: true\n")))
		cj := s.GetJSON(t, "get", "cronjob", "hourly")
		WantField(t, cj, "30 * * * *", "spec", "schedule")
		WantField(t, cj, true, "spec", "suspend")
		WantField(t, s.GetJSON(t, "get", "cronjobs.v1beta1.batch", "hourly"), "30 * * * *", "spec", "schedule")
	})

	t.Run("delete", func(t *testing.T) {
		s.Expect(t, `cronjob.batch "nightly" deleted`, "delete", "cronjob", "nightly")
		s.Expect(t, `cronjob.batch "keep-none" deleted`, "delete", "cronjobs.v1beta1.batch", "keep-none")
		s.Expect(t, `cronjob.batch "hourly" deleted`, "delete", "cj", "hourly")
		r := s.KubectlFails(t, "get", "cronjob", "nightly")
		WantContains(t, r.Stderr, "NotFound")
	})
}
