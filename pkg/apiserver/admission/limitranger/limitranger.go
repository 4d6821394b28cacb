package limitranger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/admission/nsobjects"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/quota"
)

// Name is the plugin's name in --enable-admission-plugins.
const Name = "LimitRanger"

// Annotation records on a pod which defaults the plugin set.
const Annotation = "platform.io/limit-ranger"

// Lister returns the LimitRanges of a namespace.
type Lister interface {
	List(ctx context.Context, ns string) ([]*corev1.LimitRange, error)
	Forget(ns string)
}

// Plugin is the LimitRanger plugin.
type Plugin struct {
	ranges Lister
}

var (
	_ admission.Mutator   = (*Plugin)(nil)
	_ admission.Validator = (*Plugin)(nil)
)

// New returns the plugin reading LimitRanges from ranges.
func New(ranges Lister) *Plugin { return &Plugin{ranges: ranges} }

// NewFromStore returns the plugin reading LimitRanges from their store.
func NewFromStore(s *registry.Store) (*Plugin, error) {
	if s == nil {
		return nil, errors.New("limitranges are not served")
	}
	return New(nsobjects.New[*corev1.LimitRange](nsobjects.StoreSource(s), nsobjects.DefaultEmptyTTL, nil)), nil
}

// Handles implements admission.Interface: creates only.
func (p *Plugin) Handles(op admission.Operation) bool { return op == admission.Create }

var (
	podsGR   = meta.GroupResource{Resource: "pods"}
	rangesGR = meta.GroupResource{Resource: "limitranges"}
)

// pod returns the pod a write creates, or nil when it is not one.
func pod(a *admission.Attributes) *corev1.Pod {
	if a.Subresource != "" || a.GroupResource() != podsGR {
		return nil
	}
	p, _ := a.Object.(*corev1.Pod)
	return p
}

// Admit fills unset container requests and limits from the defaults.
func (p *Plugin) Admit(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource == "" && a.GroupResource() == rangesGR {
		// The namespace gets its first range: stop trusting an empty read.
		p.ranges.Forget(a.Namespace)
		return nil
	}
	pd := pod(a)
	if pd == nil {
		return nil
	}
	ranges, err := p.ranges.List(ctx, a.Namespace)
	if err != nil {
		return fmt.Errorf("limit ranges of namespace %s: %w", a.Namespace, err)
	}
	for _, lr := range ranges {
		SetDefaults(pd, lr)
	}
	return nil
}

// Validate refuses pods outside the bounds of any range.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	pd := pod(a)
	if pd == nil {
		return nil
	}
	ranges, err := p.ranges.List(ctx, a.Namespace)
	if err != nil {
		return fmt.Errorf("limit ranges of namespace %s: %w", a.Namespace, err)
	}
	var errs []string
	for _, lr := range ranges {
		errs = append(errs, Check(pd, lr)...)
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errors.New(errs[0])
	}
	// Several failures read as upstream's aggregate error does.
	return fmt.Errorf("[%s]", strings.Join(errs, ", "))
}

// SetDefaults gives each container of pd the requests and limits of lr's
// Container items it does not set. A limit without a request first makes
// the request equal to it, as pod defaulting would.
func SetDefaults(pd *corev1.Pod, lr *corev1.LimitRange) {
	var req, lim corev1.ResourceList
	for _, item := range lr.Spec.Limits {
		if item.Type == corev1.LimitTypeContainer {
			req = quota.Add(req, item.DefaultRequest)
			lim = quota.Add(lim, item.Default)
		}
	}
	if len(req) == 0 && len(lim) == 0 {
		return
	}
	var notes []string
	for i := range pd.Spec.Containers {
		notes = merge(&pd.Spec.Containers[i], req, lim, "container", notes)
	}
	for i := range pd.Spec.InitContainers {
		notes = merge(&pd.Spec.InitContainers[i], req, lim, "init container", notes)
	}
	if len(notes) > 0 {
		if pd.Annotations == nil {
			pd.Annotations = map[string]string{}
		}
		pd.Annotations[Annotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	}
}

// merge sets the unset requests and limits of c and returns notes with
// what it set appended.
func merge(c *corev1.Container, req, lim corev1.ResourceList, what string, notes []string) []string {
	r := &c.Resources
	for k, v := range r.Limits {
		if _, ok := r.Requests[k]; !ok {
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			r.Requests[k] = v.DeepCopy()
		}
	}
	var setLim, setReq []string
	for _, k := range quota.Names(lim) {
		if _, ok := r.Limits[k]; !ok {
			if r.Limits == nil {
				r.Limits = corev1.ResourceList{}
			}
			r.Limits[k] = lim[k].DeepCopy()
			setLim = append(setLim, string(k))
		}
	}
	for _, k := range quota.Names(req) {
		if _, ok := r.Requests[k]; !ok {
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			r.Requests[k] = req[k].DeepCopy()
			setReq = append(setReq, string(k))
		}
	}
	if len(setReq) > 0 {
		notes = append(notes, fmt.Sprintf("%s request for %s %s", strings.Join(setReq, ", "), what, c.Name))
	}
	if len(setLim) > 0 {
		notes = append(notes, fmt.Sprintf("%s limit for %s %s", strings.Join(setLim, ", "), what, c.Name))
	}
	return notes
}

// Check returns why pd breaks lr, one message per broken bound, in
// upstream's words.
func Check(pd *corev1.Pod, lr *corev1.LimitRange) []string {
	var errs []string
	for _, item := range lr.Spec.Limits {
		switch item.Type {
		case corev1.LimitTypeContainer:
			all := append(slices.Clone(pd.Spec.Containers), pd.Spec.InitContainers...)
			for i := range all {
				errs = append(errs, bounds(&item, all[i].Resources.Requests, all[i].Resources.Limits)...)
			}
		case corev1.LimitTypePod:
			errs = append(errs, bounds(&item, quota.PodRequests(pd), quota.PodLimits(pd))...)
		}
	}
	return errs
}
