package limitranger

import (
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/quota"
)

// bounds checks one object's requests and limits against an item's min,
// max and maxLimitRequestRatio, resources in name order.
func bounds(item *corev1.LimitRangeItem, req, lim corev1.ResourceList) []string {
	t := string(item.Type)
	var errs []string
	for _, k := range quota.Names(item.Min) {
		errs = appendErr(errs, minimum(t, k, item.Min[k], req, lim))
	}
	for _, k := range quota.Names(item.Max) {
		errs = appendErr(errs, maximum(t, k, item.Max[k], req, lim))
	}
	for _, k := range quota.Names(item.MaxLimitRequestRatio) {
		errs = appendErr(errs, ratio(t, k, item.MaxLimitRequestRatio[k], req, lim))
	}
	return errs
}

func appendErr(errs []string, msg string) []string {
	if msg != "" {
		errs = append(errs, msg)
	}
	return errs
}

// values returns the request, limit and bound as integers comparable
// with each other: in thousandths when all three fit, else whole units.
func values(req, lim, bound resource.Quantity) (int64, int64, int64) {
	if req.Value() <= maxMilli && lim.Value() <= maxMilli && bound.Value() <= maxMilli {
		return req.MilliValue(), lim.MilliValue(), bound.MilliValue()
	}
	return req.Value(), lim.Value(), bound.Value()
}

// maxMilli is the largest value whose thousandths fit an int64.
const maxMilli = (1<<63 - 1) / 1000

func minimum(t string, k corev1.ResourceName, bound resource.Quantity, reqs, lims corev1.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, b := values(req, lim, bound)
	switch {
	case !hasReq:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, t, bound.String())
	case r < b:
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, t, bound.String(), req.String())
	case hasLim && l < b:
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, t, bound.String(), lim.String())
	}
	return ""
}

func maximum(t string, k corev1.ResourceName, bound resource.Quantity, reqs, lims corev1.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, b := values(req, lim, bound)
	switch {
	case !hasLim:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, t, bound.String())
	case l > b:
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, t, bound.String(), lim.String())
	case hasReq && r > b:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, t, bound.String(), req.String())
	}
	return ""
}

func ratio(t string, k corev1.ResourceName, bound resource.Quantity, reqs, lims corev1.ResourceList) string {
	req, hasReq := reqs[k]
	lim, hasLim := lims[k]
	r, l, _ := values(req, lim, bound)
	switch {
	case !hasReq || r == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, t, bound.String())
	case !hasLim || l == 0:
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, t, bound.String())
	}
	observed := float64(l) / float64(r)
	most := float64(bound.Value())
	scaled := observed
	if bound.Value() <= maxMilli {
		scaled, most = observed*1000, float64(bound.MilliValue())
	}
	if scaled > most {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, t, bound.String(), observed)
	}
	return ""
}
