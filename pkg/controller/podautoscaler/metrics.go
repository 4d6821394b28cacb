package podautoscaler

import (
	"context"
	"fmt"
	"path"

	corev1 "platform.io/client/api/core/v1"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
	"platform.io/client/rest"
)

// MetricsSource reads the current usage of the pods a selector matches.
type MetricsSource interface {
	// PodUsage returns the usage of res by each matching pod in ns, by pod
	// name, summed over its containers.
	PodUsage(ctx context.Context, ns, selector string, res corev1.ResourceName) (map[string]PodUsage, error)
}

// ResourceMetrics reads the resource metrics API
// (/apis/metrics.platform.io/v1beta1) through a REST client: in production
// the API server's client, which proxies the group to the metrics server.
type ResourceMetrics struct{ REST *rest.Client }

var _ MetricsSource = ResourceMetrics{}

// PodUsage implements MetricsSource.
func (m ResourceMetrics) PodUsage(ctx context.Context, ns, selector string, res corev1.ResourceName) (map[string]PodUsage, error) {
	p := path.Join("/apis", metricsv1beta1.GroupName, metricsv1beta1.SchemeGroupVersion.Version, "namespaces", ns, "pods")
	req := m.REST.Get().AbsPath(p)
	if selector != "" {
		req = req.Param("labelSelector", selector)
	}
	var list metricsv1beta1.PodMetricsList
	if err := req.Do(ctx).Into(&list); err != nil {
		return nil, fmt.Errorf("unable to fetch metrics from resource metrics API: %w", err)
	}
	if len(list.Items) == 0 {
		return nil, fmt.Errorf("no metrics returned from resource metrics API")
	}
	out := make(map[string]PodUsage, len(list.Items))
	for _, pm := range list.Items {
		var sum int64
		complete := len(pm.Containers) > 0
		for _, c := range pm.Containers {
			q, ok := c.Usage[res]
			if !ok {
				complete = false
				break
			}
			sum += q.MilliValue()
		}
		// A pod missing the resource for a container is left out, and so
		// counts as missing.
		if complete {
			out[pm.Name] = PodUsage{Value: sum, Timestamp: pm.Timestamp.Time, Window: pm.Window.Duration}
		}
	}
	return out, nil
}
