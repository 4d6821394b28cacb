package metricsserver

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/fields"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
)

// selectors parses the list's labelSelector and fieldSelector; the
// fields are metadata.name and, for pods, metadata.namespace.
func selectors(r *http.Request) (labels.Selector, fields.Selector, *apierrors.StatusError) {
	query := r.URL.Query()
	ls, err := labels.Parse(query.Get("labelSelector"))
	if err != nil {
		return nil, nil, apierrors.NewBadRequest("labelSelector: " + err.Error())
	}
	fs, err := fields.Parse(query.Get("fieldSelector"))
	if err != nil {
		return nil, nil, apierrors.NewBadRequest("fieldSelector: " + err.Error())
	}
	return ls, fs, nil
}

// fieldsOf are the selectable fields of an object.
func fieldsOf(m *meta.ObjectMeta, namespaced bool) fields.Set {
	s := fields.Set{"metadata.name": m.Name}
	if namespaced {
		s["metadata.namespace"] = m.Namespace
	}
	return s
}

// checkFields refuses a selector on a field that is not selectable.
func checkFields(fs fields.Selector, namespaced bool) *apierrors.StatusError {
	for _, req := range fs.Requirements() {
		if req.Field != "metadata.name" && (!namespaced || req.Field != "metadata.namespace") {
			return apierrors.NewBadRequest("fieldSelector: field label not supported: " + req.Field)
		}
	}
	return nil
}

func objectMeta(m *meta.ObjectMeta, now time.Time) meta.ObjectMeta {
	return meta.ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: maps.Clone(m.Labels), CreationTimestamp: meta.NewTime(now)}
}

func (a *API) nodeMetrics(n *corev1.Node, now time.Time) (metricsv1beta1.NodeMetrics, bool) {
	u, ok := a.store.Node(n.Name)
	if !ok {
		return metricsv1beta1.NodeMetrics{}, false
	}
	return metricsv1beta1.NodeMetrics{
		ObjectMeta: objectMeta(&n.ObjectMeta, now),
		Timestamp:  meta.NewTime(u.Time), Window: meta.Duration{Duration: u.Window},
		Usage: u.ResourceList(),
	}, true
}

func (a *API) podMetrics(p *corev1.Pod, now time.Time) (metricsv1beta1.PodMetrics, bool) {
	u, ok := a.store.Pod(p.Namespace, p.Name)
	if !ok {
		return metricsv1beta1.PodMetrics{}, false
	}
	pm := metricsv1beta1.PodMetrics{
		ObjectMeta: objectMeta(&p.ObjectMeta, now),
		Timestamp:  meta.NewTime(u.Time), Window: meta.Duration{Duration: u.Window},
		Containers: make([]metricsv1beta1.ContainerMetrics, 0, len(u.Containers)),
	}
	for _, c := range u.Containers {
		pm.Containers = append(pm.Containers, metricsv1beta1.ContainerMetrics{Name: c.Name, Usage: c.ResourceList()})
	}
	return pm, true
}

func (q request) apiVersion() string { return q.group + "/" + Version }

func (q request) notFound(name string) *apierrors.StatusError {
	return apierrors.NewNotFound(meta.GroupResource{Group: q.group, Resource: q.resource}, name)
}

func (a *API) getNode(w http.ResponseWriter, r *http.Request, q request) {
	n, err := a.nodes.Get(q.name)
	if err != nil {
		writeError(w, r, q.notFound(q.name))
		return
	}
	nm, ok := a.nodeMetrics(n, time.Now())
	if !ok {
		writeError(w, r, q.notFound(q.name))
		return
	}
	nm.TypeMeta = meta.TypeMeta{Kind: "NodeMetrics", APIVersion: q.apiVersion()}
	write(w, r, q.apiVersion(), "NodeMetrics", &nm)
}

func (a *API) listNodes(w http.ResponseWriter, r *http.Request, q request) {
	ls, fs, serr := selectors(r)
	if serr == nil {
		serr = checkFields(fs, false)
	}
	if serr != nil {
		writeError(w, r, serr)
		return
	}
	nodes, err := a.nodes.List(ls)
	if err != nil {
		writeError(w, r, apierrors.NewInternalError(err))
		return
	}
	slices.SortFunc(nodes, func(x, y *corev1.Node) int { return strings.Compare(x.Name, y.Name) })
	l := &metricsv1beta1.NodeMetricsList{TypeMeta: meta.TypeMeta{Kind: "NodeMetricsList", APIVersion: q.apiVersion()},
		Items: []metricsv1beta1.NodeMetrics{}}
	now := time.Now()
	for _, n := range nodes {
		if !fs.Matches(fieldsOf(&n.ObjectMeta, false)) {
			continue
		}
		if nm, ok := a.nodeMetrics(n, now); ok {
			l.Items = append(l.Items, nm)
		}
	}
	write(w, r, q.apiVersion(), "NodeMetricsList", l)
}

func (a *API) getPod(w http.ResponseWriter, r *http.Request, q request) {
	p, err := a.pods.Namespace(q.namespace).Get(q.name)
	if err != nil {
		writeError(w, r, q.notFound(q.name))
		return
	}
	pm, ok := a.podMetrics(p, time.Now())
	if !ok {
		writeError(w, r, q.notFound(q.name))
		return
	}
	pm.TypeMeta = meta.TypeMeta{Kind: "PodMetrics", APIVersion: q.apiVersion()}
	write(w, r, q.apiVersion(), "PodMetrics", &pm)
}

func (a *API) listPods(w http.ResponseWriter, r *http.Request, q request) {
	ls, fs, serr := selectors(r)
	if serr == nil {
		serr = checkFields(fs, true)
	}
	if serr != nil {
		writeError(w, r, serr)
		return
	}
	var (
		pods []*corev1.Pod
		err  error
	)
	if q.namespace != "" {
		pods, err = a.pods.Namespace(q.namespace).List(ls)
	} else {
		pods, err = a.pods.List(ls)
	}
	if err != nil {
		writeError(w, r, apierrors.NewInternalError(err))
		return
	}
	slices.SortFunc(pods, func(x, y *corev1.Pod) int {
		if c := strings.Compare(x.Namespace, y.Namespace); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	l := &metricsv1beta1.PodMetricsList{TypeMeta: meta.TypeMeta{Kind: "PodMetricsList", APIVersion: q.apiVersion()},
		Items: []metricsv1beta1.PodMetrics{}}
	now := time.Now()
	for _, p := range pods {
		if !fs.Matches(fieldsOf(&p.ObjectMeta, true)) {
			continue
		}
		if pm, ok := a.podMetrics(p, now); ok {
			l.Items = append(l.Items, pm)
		}
	}
	write(w, r, q.apiVersion(), "PodMetricsList", l)
}
