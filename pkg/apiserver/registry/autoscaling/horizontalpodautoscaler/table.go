package horizontalpodautoscaler

import (
	"fmt"
	"strings"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get hpa, as upstream prints
// them, in both versions (a v1 object is printed from its v2 form).
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Reference", table.TypeString, "The kind and name of the object scaled."),
		table.Column("Targets", table.TypeString, "The current and target value of each metric."),
		table.Column("MinPods", table.TypeString, "The lower limit of the replica count."),
		table.Column("MaxPods", table.TypeInteger, "The upper limit of the replica count."),
		table.Column("Replicas", table.TypeInteger, "The replica count last seen."),
		table.AgeColumn(),
	},
	Row: func(obj meta.Object) []any {
		h, ok := obj.(*autoscalingv2.HorizontalPodAutoscaler)
		if v1, isV1 := obj.(*autoscalingv1.HorizontalPodAutoscaler); isV1 {
			var err error
			if h, err = ToV2(v1); err != nil {
				h, ok = &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: v1.ObjectMeta}, true
			} else {
				ok = true
			}
		}
		if !ok {
			return nil
		}
		minPods := "<unset>"
		if h.Spec.MinReplicas != nil {
			minPods = fmt.Sprint(*h.Spec.MinReplicas)
		}
		ref := h.Spec.ScaleTargetRef
		return []any{
			h.Name, ref.Kind + "/" + ref.Name, Targets(h.Spec.Metrics, h.Status.CurrentMetrics), minPods,
			int64(h.Spec.MaxReplicas), int64(h.Status.CurrentReplicas), table.Age(&h.ObjectMeta),
		}
	},
}

// Targets formats metrics as the TARGETS column: "cpu: 45%/50%" per
// metric, the current value "<unknown>" until read, the first two metrics
// and a count of the rest.
func Targets(specs []autoscalingv2.MetricSpec, statuses []autoscalingv2.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	var list []string
	for i, s := range specs {
		var st *autoscalingv2.MetricStatus
		if i < len(statuses) && statuses[i].Type == s.Type {
			st = &statuses[i]
		}
		list = append(list, formatMetric(&s, st))
	}
	if len(list) > 2 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:2], ", "), len(list)-2)
	}
	return strings.Join(list, ", ")
}

const unknown = "<unknown>"

func formatMetric(s *autoscalingv2.MetricSpec, st *autoscalingv2.MetricStatus) string {
	switch s.Type {
	case autoscalingv2.ResourceMetricSourceType:
		if s.Resource == nil {
			break
		}
		var cur *autoscalingv2.MetricValueStatus
		if st != nil && st.Resource != nil {
			cur = &st.Resource.Current
		}
		return string(s.Resource.Name) + ": " + formatResource(&s.Resource.Target, cur)
	case autoscalingv2.ContainerResourceMetricSourceType:
		if s.ContainerResource == nil {
			break
		}
		var cur *autoscalingv2.MetricValueStatus
		if st != nil && st.ContainerResource != nil {
			cur = &st.ContainerResource.Current
		}
		return string(s.ContainerResource.Name) + ": " + formatResource(&s.ContainerResource.Target, cur)
	case autoscalingv2.PodsMetricSourceType:
		if s.Pods == nil {
			break
		}
		cur := unknown
		if st != nil && st.Pods != nil && st.Pods.Current.AverageValue != nil {
			cur = st.Pods.Current.AverageValue.String()
		}
		return cur + "/" + quantity(s.Pods.Target.AverageValue)
	case autoscalingv2.ObjectMetricSourceType, autoscalingv2.ExternalMetricSourceType:
		var target *autoscalingv2.MetricTarget
		var cur *autoscalingv2.MetricValueStatus
		if s.Object != nil {
			target = &s.Object.Target
			if st != nil && st.Object != nil {
				cur = &st.Object.Current
			}
		} else if s.External != nil {
			target = &s.External.Target
			if st != nil && st.External != nil {
				cur = &st.External.Current
			}
		}
		if target == nil {
			break
		}
		if target.AverageValue != nil {
			c := unknown
			if cur != nil && cur.AverageValue != nil {
				c = cur.AverageValue.String()
			}
			return c + "/" + target.AverageValue.String() + " (avg)"
		}
		c := unknown
		if cur != nil && cur.Value != nil {
			c = cur.Value.String()
		}
		return c + "/" + quantity(target.Value)
	}
	return unknown + "/" + unknown
}

func formatResource(t *autoscalingv2.MetricTarget, cur *autoscalingv2.MetricValueStatus) string {
	if t.AverageValue != nil {
		c := unknown
		if cur != nil && cur.AverageValue != nil {
			c = cur.AverageValue.String()
		}
		return c + "/" + t.AverageValue.String()
	}
	c := unknown
	if cur != nil && cur.AverageUtilization != nil {
		c = fmt.Sprintf("%d%%", *cur.AverageUtilization)
	}
	target := "<auto>"
	if t.AverageUtilization != nil {
		target = fmt.Sprintf("%d%%", *t.AverageUtilization)
	}
	return c + "/" + target
}

func quantity(q *resource.Quantity) string {
	if q == nil {
		return unknown
	}
	return q.String()
}
