package podautoscaler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"
)

// statusWriter writes an autoscaler's status.
type statusWriter interface {
	UpdateStatus(ctx context.Context, hpa *autoscalingv2.HorizontalPodAutoscaler) error
}

type reconciler struct {
	hpas     informer.Lister[*autoscalingv2.HorizontalPodAutoscaler]
	pods     informer.Lister[*corev1.Pod]
	scales   Scales
	metrics  MetricsSource
	status   statusWriter
	recorder record.Recorder
	calc     Calculator
	history  *History
	// syncPeriod is how soon an autoscaler is evaluated again.
	syncPeriod time.Duration
	// downWindow is the scale-down window of behaviors that set none.
	downWindow time.Duration
}

var _ ctrl.Reconciler = (*reconciler)(nil)

// Reconcile evaluates the autoscaler named by key once and asks to be
// called again after the sync period. Failures to read the target or its
// metrics are reported in the status and events, not returned: the next
// period retries them. A failed status write is returned, to be retried.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	cached, err := r.hpas.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		r.history.Forget(key)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("get horizontalpodautoscaler %s: %w", key, err)
	}
	hpa, err := deepCopy(cached)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("copy horizontalpodautoscaler %s: %w", key, err)
	}
	hpa.APIVersion, hpa.Kind = autoscalingv2.SchemeGroupVersion.String(), "HorizontalPodAutoscaler"
	before, err := json.Marshal(hpa.Status)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("encode status of horizontalpodautoscaler %s: %w", key, err)
	}
	r.evaluate(ctx, key, hpa)
	if after, err := json.Marshal(hpa.Status); err != nil || !bytes.Equal(before, after) {
		if err := r.status.UpdateStatus(ctx, hpa); err != nil {
			return ctrl.Result{}, fmt.Errorf("update status of horizontalpodautoscaler %s: %w", key, err)
		}
	}
	return ctrl.Result{RequeueAfter: r.syncPeriod}, nil
}

// evaluate runs one pass of the autoscaler over hpa, setting its status.
func (r *reconciler) evaluate(ctx context.Context, key string, hpa *autoscalingv2.HorizontalPodAutoscaler) {
	now := r.calc.Now()
	ref := hpa.Spec.ScaleTargetRef
	scale, _, err := r.scales.Get(ctx, hpa.Namespace, ref.APIVersion, ref.Kind, ref.Name)
	if err != nil {
		r.recorder.Event(hpa, corev1.EventTypeWarning, "FailedGetScale", err.Error())
		setCondition(hpa, now, autoscalingv2.AbleToScale, corev1.ConditionFalse, "FailedGetScale",
			"the HPA controller was unable to get the target's current scale: %v", err)
		return
	}
	setCondition(hpa, now, autoscalingv2.AbleToScale, corev1.ConditionTrue, "SucceededGetScale",
		"the HPA controller was able to get the target's current scale")
	current := scale.Spec.Replicas
	minReplicas := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minReplicas = *hpa.Spec.MinReplicas
	}
	var desired int32
	var reason string
	var statuses []autoscalingv2.MetricStatus
	rescale := true
	switch {
	case current == 0 && minReplicas != 0:
		rescale = false
		setCondition(hpa, now, autoscalingv2.ScalingActive, corev1.ConditionFalse, "ScalingDisabled",
			"scaling is disabled since the replica count of the target is zero")
	case current > hpa.Spec.MaxReplicas:
		desired, reason = hpa.Spec.MaxReplicas, "Current number of replicas above Spec.MaxReplicas"
	case current < minReplicas:
		desired, reason = minReplicas, "Current number of replicas below Spec.MinReplicas"
	default:
		proposed, metric, st, err := r.replicasForMetrics(ctx, hpa, scale, now)
		statuses = st
		if err != nil {
			r.recorder.Event(hpa, corev1.EventTypeWarning, "FailedComputeMetricsReplicas", err.Error())
			hpa.Status.CurrentReplicas, hpa.Status.CurrentMetrics = current, statuses
			return
		}
		switch {
		case proposed > current:
			reason = metric + " above target"
		case proposed < current:
			reason = "All metrics below target"
		}
		d := r.history.Normalize(key, r.rules(hpa), minReplicas, hpa.Spec.MaxReplicas, current, proposed)
		setCondition(hpa, now, autoscalingv2.AbleToScale, corev1.ConditionTrue, d.StabilizedReason, "%s", d.StabilizedMessage)
		limited := corev1.ConditionFalse
		if d.Limited {
			limited = corev1.ConditionTrue
		}
		setCondition(hpa, now, autoscalingv2.ScalingLimited, limited, d.LimitReason, "%s", d.LimitMessage)
		desired = d.Replicas
		rescale = desired != current
	}
	if rescale {
		next := *scale
		next.Spec.Replicas = desired
		if err := r.scales.Update(ctx, hpa.Namespace, ref.APIVersion, ref.Kind, &next); err != nil {
			r.recorder.Eventf(hpa, corev1.EventTypeWarning, "FailedRescale", "New size: %d; reason: %s; error: %v", desired, reason, err)
			setCondition(hpa, now, autoscalingv2.AbleToScale, corev1.ConditionFalse, "FailedUpdateScale",
				"the HPA controller was unable to update the target scale: %v", err)
			hpa.Status.CurrentReplicas, hpa.Status.CurrentMetrics = current, statuses
			return
		}
		setCondition(hpa, now, autoscalingv2.AbleToScale, corev1.ConditionTrue, "SucceededRescale",
			"the HPA controller was able to update the target scale to %d", desired)
		r.recorder.Eventf(hpa, corev1.EventTypeNormal, "SuccessfulRescale", "New size: %d; reason: %s", desired, reason)
		r.history.Record(key, r.rules(hpa), current, desired)
		hpa.Status.LastScaleTime = &meta.Time{Time: now}
	} else {
		desired = current
	}
	hpa.Status.ObservedGeneration = &hpa.Generation
	hpa.Status.CurrentReplicas, hpa.Status.DesiredReplicas, hpa.Status.CurrentMetrics = current, desired, statuses
}

// rules returns hpa's behavior with every unset part defaulted; the
// scale-down window defaults to the controller's flag.
func (r *reconciler) rules(hpa *autoscalingv2.HorizontalPodAutoscaler) Rules {
	var up, down *autoscalingv2.HPAScalingRules
	if b := hpa.Spec.Behavior; b != nil {
		up, down = b.ScaleUp, b.ScaleDown
	}
	return Rules{
		Up:   autoscalingv2.FillRules(cloneRules(up), autoscalingv2.DefaultScaleUp()),
		Down: autoscalingv2.FillRules(cloneRules(down), autoscalingv2.DefaultScaleDown(int32(r.downWindow/time.Second))),
	}
}

func cloneRules(r *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if r == nil {
		return nil
	}
	c := *r
	return &c
}

// replicasForMetrics computes the largest replica count any metric asks
// for, the name of that metric and the metrics' statuses. It fails when no
// metric could be read, or when some could not and the rest ask for
// fewer replicas (a scale-down on partial data is not safe).
func (r *reconciler) replicasForMetrics(ctx context.Context, hpa *autoscalingv2.HorizontalPodAutoscaler, scale *autoscalingv1.Scale, now time.Time) (int32, string, []autoscalingv2.MetricStatus, error) {
	if scale.Status.Selector == "" {
		msg := "the HPA target's scale is missing a selector"
		setCondition(hpa, now, autoscalingv2.ScalingActive, corev1.ConditionFalse, "InvalidSelector", "%s", msg)
		r.recorder.Event(hpa, corev1.EventTypeWarning, "SelectorRequired", msg)
		return 0, "", nil, errors.New("selector is required")
	}
	sel, err := labels.Parse(scale.Status.Selector)
	if err != nil {
		setCondition(hpa, now, autoscalingv2.ScalingActive, corev1.ConditionFalse, "InvalidSelector",
			"the HPA target's scale has an invalid selector: %v", err)
		r.recorder.Event(hpa, corev1.EventTypeWarning, "InvalidSelector", err.Error())
		return 0, "", nil, fmt.Errorf("couldn't convert selector into a corresponding internal selector object: %w", err)
	}
	pods, err := r.pods.Namespace(hpa.Namespace).List(sel)
	if err != nil {
		return 0, "", nil, fmt.Errorf("list pods: %w", err)
	}
	current := scale.Spec.Replicas
	var best int32
	var bestName string
	found := false
	var firstErr error
	invalid := 0
	statuses := make([]autoscalingv2.MetricStatus, len(hpa.Spec.Metrics))
	for i := range hpa.Spec.Metrics {
		m := &hpa.Spec.Metrics[i]
		n, name, st, err := r.replicasForMetric(ctx, m, current, scale.Status.Selector, hpa.Namespace, pods)
		if err != nil {
			if invalid == 0 {
				firstErr = err
			}
			invalid++
			reason := "FailedGet" + string(m.Type) + "Metric"
			r.recorder.Event(hpa, corev1.EventTypeWarning, reason, err.Error())
			setCondition(hpa, now, autoscalingv2.ScalingActive, corev1.ConditionFalse, reason,
				"the HPA was unable to compute the replica count: %v", err)
			continue
		}
		statuses[i] = st
		if !found || n > best {
			best, bestName, found = n, name, true
		}
	}
	if invalid == len(hpa.Spec.Metrics) || (invalid > 0 && best < current) {
		return -1, "", nil, fmt.Errorf("invalid metrics (%d invalid out of %d), first error is: %w", invalid, len(hpa.Spec.Metrics), firstErr)
	}
	setCondition(hpa, now, autoscalingv2.ScalingActive, corev1.ConditionTrue, "ValidMetricFound",
		"the HPA was able to successfully calculate a replica count from %s", bestName)
	return best, bestName, statuses, nil
}

// replicasForMetric computes one metric's replica count. Resource metrics
// (utilization and average value) are read from the metrics API; other
// sources need custom or external metrics APIs this controller does not read.
func (r *reconciler) replicasForMetric(ctx context.Context, m *autoscalingv2.MetricSpec, current int32, selector, ns string, pods []*corev1.Pod) (int32, string, autoscalingv2.MetricStatus, error) {
	if m.Type != autoscalingv2.ResourceMetricSourceType || m.Resource == nil {
		return 0, "", autoscalingv2.MetricStatus{}, fmt.Errorf("metric source type %s is not supported", m.Type)
	}
	res, target := m.Resource.Name, m.Resource.Target
	samples, err := r.metrics.PodUsage(ctx, ns, selector, res)
	if err != nil {
		return 0, "", autoscalingv2.MetricStatus{}, fmt.Errorf("failed to get %s utilization: %w", res, err)
	}
	st := autoscalingv2.MetricStatus{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{Name: res}}
	switch {
	case target.AverageValue != nil:
		u, err := r.calc.AverageValueReplicas(current, target.AverageValue.MilliValue(), res, pods, samples)
		if err != nil {
			return 0, "", st, fmt.Errorf("failed to get %s usage: %w", res, err)
		}
		st.Resource.Current.AverageValue = resource.NewMilliQuantity(u.Average, resource.DecimalSI)
		return u.Replicas, fmt.Sprintf("%s resource", res), st, nil
	case target.AverageUtilization != nil:
		u, err := r.calc.UtilizationReplicas(current, *target.AverageUtilization, res, pods, samples)
		if err != nil {
			return 0, "", st, fmt.Errorf("failed to get %s utilization: %w", res, err)
		}
		pct := u.Percent
		st.Resource.Current.AverageUtilization = &pct
		st.Resource.Current.AverageValue = resource.NewMilliQuantity(u.Average, resource.DecimalSI)
		return u.Replicas, fmt.Sprintf("%s resource utilization (percentage of request)", res), st, nil
	}
	return 0, "", st, fmt.Errorf("invalid resource metric source: neither a utilization target nor a value target was set")
}

// setCondition sets the condition of type t, moving its transition time
// only when its status changes.
func setCondition(hpa *autoscalingv2.HorizontalPodAutoscaler, now time.Time, t autoscalingv2.HorizontalPodAutoscalerConditionType,
	status corev1.ConditionStatus, reason, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	conds := hpa.Status.Conditions
	for i := range conds {
		if conds[i].Type != t {
			continue
		}
		if conds[i].Status != status {
			conds[i].LastTransitionTime = meta.Time{Time: now}
		}
		conds[i].Status, conds[i].Reason, conds[i].Message = status, reason, msg
		return
	}
	hpa.Status.Conditions = append(conds, autoscalingv2.HorizontalPodAutoscalerCondition{
		Type: t, Status: status, Reason: reason, Message: msg, LastTransitionTime: meta.Time{Time: now},
	})
}

// deepCopy copies an autoscaler through its protobuf encoding, so the
// informer's copy is never changed.
func deepCopy(h *autoscalingv2.HorizontalPodAutoscaler) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	out := &autoscalingv2.HorizontalPodAutoscaler{TypeMeta: h.TypeMeta}
	if err := out.UnmarshalProto(h.MarshalProto(nil)); err != nil {
		return nil, err
	}
	return out, nil
}
