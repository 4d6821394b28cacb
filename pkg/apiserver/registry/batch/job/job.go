package job

import (
	"fmt"
	"maps"
	"strconv"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/batch/batchvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// The labels the server puts on the pod template of a Job whose selector it
// generates; the unprefixed pair is kept for older clients.
const (
	ControllerUIDLabel       = "batch.platform.io/controller-uid"
	JobNameLabel             = "batch.platform.io/job-name"
	LegacyControllerUIDLabel = "controller-uid"
	LegacyJobNameLabel       = "job-name"
)

// Resource is the jobs row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: batchv1.GroupName, Version: "v1", Name: "jobs", Singular: "job", Kind: "Job",
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &batchv1.Job{} },
		HasStatus:  true,
		Strategy: registry.Typed[batchv1.Job]{
			DefaultFunc:          defaultJob,
			PrepareForCreateFunc: prepareForCreate,
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
		},
		SelectableFields: func(obj meta.Object) map[string]string {
			return map[string]string{"status.successful": strconv.Itoa(int(obj.(*batchv1.Job).Status.Succeeded))}
		},
		Table: tableColumns,
	}
}

func defaultJob(j *batchv1.Job) {
	batchvalidation.DefaultJobSpec(&j.Spec)
	if j.Spec.Template.Labels != nil && len(j.Labels) == 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

// prepareForCreate generates the selector and pod labels unless the user
// manages them. The store has set the uid by now.
func prepareForCreate(j *batchv1.Job) {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector {
		return
	}
	if j.Spec.Template.Labels == nil {
		j.Spec.Template.Labels = map[string]string{}
	}
	// Labels the user already set are kept; validation rejects wrong ones.
	for k, v := range map[string]string{
		LegacyJobNameLabel: j.Name, JobNameLabel: j.Name,
		LegacyControllerUIDLabel: string(j.UID), ControllerUIDLabel: string(j.UID),
	} {
		if _, ok := j.Spec.Template.Labels[k]; !ok {
			j.Spec.Template.Labels[k] = v
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &meta.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[ControllerUIDLabel]; !ok {
		j.Spec.Selector.MatchLabels[ControllerUIDLabel] = string(j.UID)
	}
	// Upstream shows the template labels on a Job that has none of its own.
	if len(j.Labels) == 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

func validate(j *batchv1.Job) field.ErrorList {
	errs := validateGeneratedSelector(j)
	errs = append(errs, validateSpec(&j.Spec, field.NewPath("spec"))...)
	if c := j.Spec.Completions; c != nil && *c > 0 && j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
		// Pods of an Indexed job take the hostname <job>-<index>.
		host := fmt.Sprintf("%s-%d", j.Name, *c-1)
		if len(validation.IsDNS1123Label(host)) > 0 {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), j.Name,
				"will not able to create pod with invalid DNS label: "+host))
		}
	}
	return errs
}

// validateSpec adds the selector rules to the shared JobSpec rules.
func validateSpec(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	errs := batchvalidation.ValidateJobSpec(spec, p)
	if spec.Selector == nil {
		return append(errs, field.Required(p.Child("selector"), ""))
	}
	errs = append(errs, batchvalidation.ValidateLabelSelector(spec.Selector, p.Child("selector"))...)
	if m, ok := batchvalidation.SelectorMatches(spec.Selector, spec.Template.Labels); ok && !m {
		errs = append(errs, field.Invalid(p.Child("template", "metadata", "labels"), spec.Template.Labels,
			"`selector` does not match template `labels`"))
	}
	return errs
}

// validateGeneratedSelector checks that a server-generated selector and the
// template labels still name this job.
func validateGeneratedSelector(j *batchv1.Job) field.ErrorList {
	if (j.Spec.ManualSelector != nil && *j.Spec.ManualSelector) || j.Spec.Selector == nil {
		return nil
	}
	var errs field.ErrorList
	if j.UID == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "uid"), ""))
	}
	lp := field.NewPath("spec", "template", "metadata", "labels")
	want := map[string]string{
		LegacyControllerUIDLabel: string(j.UID), LegacyJobNameLabel: j.Name,
		ControllerUIDLabel: string(j.UID), JobNameLabel: j.Name,
	}
	for _, k := range []string{LegacyControllerUIDLabel, LegacyJobNameLabel, ControllerUIDLabel, JobNameLabel} {
		got, ok := j.Spec.Template.Labels[k]
		switch {
		case !ok:
			errs = append(errs, field.Required(lp.Key(k), "must be '"+want[k]+"'"))
		case got != want[k]:
			errs = append(errs, field.Invalid(lp.Key(k), got, "must be '"+want[k]+"'"))
		}
	}
	if m, ok := batchvalidation.SelectorMatches(j.Spec.Selector, want); ok && !m {
		errs = append(errs, field.Invalid(field.NewPath("spec", "selector"), j.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

func validateUpdate(j, old *batchv1.Job) field.ErrorList {
	errs := validate(j)
	errs = append(errs, validateStatus(&j.Status, field.NewPath("status"))...)
	p := field.NewPath("spec")
	errs = append(errs, validateCompletionsUpdate(&j.Spec, &old.Spec, p.Child("completions"))...)
	for _, f := range []struct {
		name     string
		new, old any
	}{
		{"selector", j.Spec.Selector, old.Spec.Selector},
		{"template", j.Spec.Template, old.Spec.Template},
		{"completionMode", j.Spec.CompletionMode, old.Spec.CompletionMode},
		{"podFailurePolicy", j.Spec.PodFailurePolicy, old.Spec.PodFailurePolicy},
		{"backoffLimitPerIndex", j.Spec.BackoffLimitPerIndex, old.Spec.BackoffLimitPerIndex},
		{"managedBy", j.Spec.ManagedBy, old.Spec.ManagedBy},
		{"successPolicy", j.Spec.SuccessPolicy, old.Spec.SuccessPolicy},
	} {
		if !batchvalidation.SemanticEqual(f.new, f.old) {
			errs = append(errs, field.Invalid(p.Child(f.name), f.new, "field is immutable"))
		}
	}
	return errs
}

// validateCompletionsUpdate keeps completions fixed, except that an Indexed
// job may scale completions together with parallelism.
func validateCompletionsUpdate(spec, old *batchv1.JobSpec, p *field.Path) field.ErrorList {
	if batchvalidation.SemanticEqual(spec.Completions, old.Completions) {
		return nil
	}
	indexed := spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion
	if !indexed {
		return field.ErrorList{field.Invalid(p, spec.Completions, "field is immutable")}
	}
	if spec.Completions == nil {
		return nil // an Indexed job without completions is reported already
	}
	if spec.Parallelism == nil || *spec.Completions != *spec.Parallelism {
		return field.ErrorList{field.Invalid(p, *spec.Completions, "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// validateStatus checks the counters and pod lists the controller writes.
func validateStatus(s *batchv1.JobStatus, p *field.Path) field.ErrorList {
	errs := batchvalidation.NonNegative(int64(s.Active), p.Child("active"))
	errs = append(errs, batchvalidation.NonNegative(int64(s.Succeeded), p.Child("succeeded"))...)
	errs = append(errs, batchvalidation.NonNegative(int64(s.Failed), p.Child("failed"))...)
	if s.Ready != nil {
		errs = append(errs, batchvalidation.NonNegative(int64(*s.Ready), p.Child("ready"))...)
	}
	if s.Terminating != nil {
		errs = append(errs, batchvalidation.NonNegative(int64(*s.Terminating), p.Child("terminating"))...)
	}
	u := s.UncountedTerminatedPods
	if u == nil {
		return errs
	}
	up := p.Child("uncountedTerminatedPods")
	seen := map[meta.UID]bool{}
	for _, list := range []struct {
		name string
		uids []meta.UID
	}{{"succeeded", u.Succeeded}, {"failed", u.Failed}} {
		for i, uid := range list.uids {
			switch ip := up.Child(list.name).Index(i); {
			case uid == "":
				errs = append(errs, field.Invalid(ip, string(uid), "must not be empty"))
			case seen[uid]:
				errs = append(errs, field.Duplicate(ip, string(uid)))
			}
			seen[uid] = true
		}
	}
	return errs
}
