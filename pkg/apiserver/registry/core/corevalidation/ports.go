package corevalidation

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// MinPort and MaxPort bound a TCP, UDP or SCTP port number.
const (
	MinPort = 1
	MaxPort = 65535
)

// Protocols lists the supported port protocols.
var Protocols = []corev1.Protocol{corev1.ProtocolSCTP, corev1.ProtocolTCP, corev1.ProtocolUDP}

// portRangeMsg is the detail of an out-of-range port.
var portRangeMsg = fmt.Sprintf("must be between %d and %d, inclusive", MinPort, MaxPort)

// PortNum checks that port is a usable port number.
func PortNum(p *field.Path, port int32) field.ErrorList {
	if port < MinPort || port > MaxPort {
		return field.ErrorList{field.Invalid(p, port, portRangeMsg)}
	}
	return nil
}

var (
	portNameCharsRe  = regexp.MustCompile("^[-a-z0-9]+$")
	portNameLetterRe = regexp.MustCompile("[a-z]")
)

// IsPortName checks an IANA service name (RFC 6335): 1 to 15 lowercase
// letters, digits and single hyphens, with at least one letter and no hyphen
// at either end. It returns one message per broken rule.
func IsPortName(name string) []string {
	var errs []string
	if len(name) > 15 {
		errs = append(errs, "must be no more than 15 characters")
	}
	if !portNameCharsRe.MatchString(name) {
		errs = append(errs, "must contain only lowercase letters, digits and '-'")
	}
	if strings.Contains(name, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if name != "" && (name[0] == '-' || name[len(name)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	if !portNameLetterRe.MatchString(name) {
		errs = append(errs, "must contain at least one letter")
	}
	return errs
}

// PortNumOrName checks a target port: a port number or an IANA service name.
func PortNumOrName(p *field.Path, v intstr.IntOrString) field.ErrorList {
	if v.Type == intstr.String {
		var errs field.ErrorList
		for _, msg := range IsPortName(v.StrVal) {
			errs = append(errs, field.Invalid(p, v.StrVal, msg))
		}
		return errs
	}
	return PortNum(p, v.IntVal)
}

// Protocol checks that proto is set and supported.
func Protocol(p *field.Path, proto corev1.Protocol) field.ErrorList {
	switch proto {
	case "":
		return field.ErrorList{field.Required(p, "")}
	case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		return nil
	}
	return field.ErrorList{field.NotSupported(p, proto, Protocols)}
}
