package podspec

import (
	"regexp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// validateProbes checks the three probes of a container that may have them.
func validateProbes(c *corev1.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pr := c.LivenessProbe; pr != nil {
		lp := p.Child("livenessProbe")
		errs = append(errs, validateProbe(pr, lp)...)
		if pr.SuccessThreshold != 1 {
			errs = append(errs, field.Invalid(lp.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
		}
	}
	if pr := c.ReadinessProbe; pr != nil {
		rp := p.Child("readinessProbe")
		errs = append(errs, validateProbe(pr, rp)...)
		if pr.TerminationGracePeriodSeconds != nil {
			errs = append(errs, field.Invalid(rp.Child("terminationGracePeriodSeconds"), *pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
		}
	}
	if pr := c.StartupProbe; pr != nil {
		sp := p.Child("startupProbe")
		errs = append(errs, validateProbe(pr, sp)...)
		if pr.SuccessThreshold != 1 {
			errs = append(errs, field.Invalid(sp.Child("successThreshold"), pr.SuccessThreshold, "must be 1"))
		}
	}
	return errs
}

func validateProbe(pr *corev1.Probe, p *field.Path) field.ErrorList {
	h := pr.ProbeHandler
	errs := validateHandler(p, map[string]bool{
		"exec": h.Exec != nil, "httpGet": h.HTTPGet != nil, "tcpSocket": h.TCPSocket != nil, "grpc": h.GRPC != nil,
	})
	errs = append(errs, validateExec(h.Exec, p.Child("exec"))...)
	errs = append(errs, validateHTTPGet(h.HTTPGet, p.Child("httpGet"))...)
	errs = append(errs, validateTCPSocket(h.TCPSocket, p.Child("tcpSocket"))...)
	if h.GRPC != nil {
		errs = append(errs, checkPortNumber(h.GRPC.Port, p.Child("grpc", "port"))...)
	}
	for _, f := range []struct {
		name string
		v    int32
	}{
		{"initialDelaySeconds", pr.InitialDelaySeconds}, {"timeoutSeconds", pr.TimeoutSeconds},
		{"periodSeconds", pr.PeriodSeconds}, {"successThreshold", pr.SuccessThreshold},
		{"failureThreshold", pr.FailureThreshold},
	} {
		if f.v < 0 {
			errs = append(errs, field.Invalid(p.Child(f.name), f.v, "must be greater than or equal to 0"))
		}
	}
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	return errs
}

// handlerOrder fixes the order in which extra handler types are reported.
var handlerOrder = []string{"exec", "httpGet", "tcpSocket", "grpc", "sleep"}

// validateHandler checks that exactly one of the handler types is set.
func validateHandler(p *field.Path, set map[string]bool) field.ErrorList {
	var errs field.ErrorList
	n := 0
	for _, name := range handlerOrder {
		if !set[name] {
			continue
		}
		n++
		if n > 1 {
			errs = append(errs, field.Forbidden(p.Child(name), "may not specify more than 1 handler type"))
		}
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a handler type"))
	}
	return errs
}

func validateLifecycle(lc *corev1.Lifecycle, p *field.Path) field.ErrorList {
	if lc == nil {
		return nil
	}
	var errs field.ErrorList
	for _, hook := range []struct {
		name string
		h    *corev1.LifecycleHandler
	}{{"postStart", lc.PostStart}, {"preStop", lc.PreStop}} {
		if hook.h == nil {
			continue
		}
		hp := p.Child(hook.name)
		h := hook.h
		errs = append(errs, validateHandler(hp, map[string]bool{
			"exec": h.Exec != nil, "httpGet": h.HTTPGet != nil, "tcpSocket": h.TCPSocket != nil, "sleep": h.Sleep != nil,
		})...)
		errs = append(errs, validateExec(h.Exec, hp.Child("exec"))...)
		errs = append(errs, validateHTTPGet(h.HTTPGet, hp.Child("httpGet"))...)
		errs = append(errs, validateTCPSocket(h.TCPSocket, hp.Child("tcpSocket"))...)
		if h.Sleep != nil && h.Sleep.Seconds < 0 {
			errs = append(errs, field.Invalid(hp.Child("sleep", "seconds"), h.Sleep.Seconds, "must be greater than or equal to 0"))
		}
	}
	return errs
}

func validateExec(e *corev1.ExecAction, p *field.Path) field.ErrorList {
	if e != nil && len(e.Command) == 0 {
		return field.ErrorList{field.Required(p.Child("command"), "")}
	}
	return nil
}

var httpHeaderNameRe = regexp.MustCompile(`^[-A-Za-z0-9!#$%&'*+.^_` + "`" + `|~]+$`)

func validateHTTPGet(h *corev1.HTTPGetAction, p *field.Path) field.ErrorList {
	if h == nil {
		return nil
	}
	var errs field.ErrorList
	if h.Path == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	}
	errs = append(errs, validateIntOrPort(h.Port, p.Child("port"))...)
	errs = append(errs, enum(h.Scheme, p.Child("scheme"), corev1.URISchemeHTTP, corev1.URISchemeHTTPS)...)
	for i, hd := range h.HTTPHeaders {
		if !httpHeaderNameRe.MatchString(hd.Name) {
			errs = append(errs, field.Invalid(p.Child("httpHeaders").Index(i).Child("name"), hd.Name, "name must be a valid HTTP header name"))
		}
	}
	return errs
}

func validateTCPSocket(t *corev1.TCPSocketAction, p *field.Path) field.ErrorList {
	if t == nil {
		return nil
	}
	return validateIntOrPort(t.Port, p.Child("port"))
}

// validateIntOrPort checks a port given as a number or as a port name.
func validateIntOrPort(v intstr.IntOrString, p *field.Path) field.ErrorList {
	if v.Type == intstr.Int {
		return checkPortNumber(v.IntVal, p)
	}
	var errs field.ErrorList
	for _, msg := range portNameErrors(v.StrVal) {
		errs = append(errs, field.Invalid(p, v.StrVal, msg))
	}
	return errs
}
