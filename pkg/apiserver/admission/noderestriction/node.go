package noderestriction

import (
	"reflect"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/admission"
)

// nodeWrite lets a node create, update (object or status) and delete only
// its own Node; it may not set a config source, change its taints, or
// touch labels outside the node agent's set.
func nodeWrite(name string, a *admission.Attributes) error {
	if want := objectName(a); want != name {
		return denyf("node %q is not allowed to modify node %q", name, want)
	}
	switch a.Operation {
	case admission.Create:
		n, ok := a.Object.(*corev1.Node)
		if !ok {
			return denyf("unexpected type %T", a.Object)
		}
		if n.Spec.ConfigSource != nil {
			return denyf("node %q is not allowed to create pods with a non-nil configSource", name)
		}
		if bad := forbiddenLabels(modifiedLabels(n.Labels, nil)); len(bad) > 0 {
			return denyf("node %q is not allowed to set the following labels: %s", name, strings.Join(bad, ", "))
		}
	case admission.Update:
		n, ok := a.Object.(*corev1.Node)
		if !ok {
			return denyf("unexpected type %T", a.Object)
		}
		old, ok := a.OldObject.(*corev1.Node)
		if !ok {
			return denyf("unexpected type %T", a.OldObject)
		}
		if n.Spec.ConfigSource != nil && !reflect.DeepEqual(n.Spec.ConfigSource, old.Spec.ConfigSource) {
			return denyf("node %q is not allowed to update configSource to a new non-nil configSource", name)
		}
		if !sameTaints(n.Spec.Taints, old.Spec.Taints) {
			return denyf("node %q is not allowed to modify taints", name)
		}
		if bad := forbiddenLabels(modifiedLabels(n.Labels, old.Labels)); len(bad) > 0 {
			return denyf("is not allowed to modify labels: %s", strings.Join(bad, ", "))
		}
	}
	return nil
}

// sameTaints compares taints as upstream's semantic equality does: an
// empty list is no list.
func sameTaints(a, b []corev1.Taint) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// modifiedLabels returns the keys added, removed or changed between a and
// b, sorted.
func modifiedLabels(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// The label namespaces the node agent's rules are about: upstream's
// kubernetes.io and k8s.io, both branded platform.io here.
const (
	labelDomain = "platform.io"
	// restrictedDomain holds labels an administrator sets to steer
	// workloads to trusted nodes; nodes never set them.
	restrictedDomain = "node-restriction.platform.io"
)

// agentLabels are the labels a node agent sets on itself.
var agentLabels = []string{
	"platform.io/hostname",
	corev1.LabelTopologyZone,
	corev1.LabelTopologyRegion,
	"failure-domain.beta.platform.io/zone",
	"failure-domain.beta.platform.io/region",
	"beta.platform.io/instance-type",
	corev1.LabelInstanceType,
	"platform.io/os",
	"platform.io/arch",
	"beta.platform.io/os",
	"beta.platform.io/arch",
}

// agentDomains are label namespaces (and their subdomains) the node agent
// owns.
var agentDomains = []string{"kubelet.platform.io", "node.platform.io"}

// forbiddenLabels returns the keys among modified a node may not add,
// change or remove: any in node-restriction.platform.io, and any in
// platform.io outside the node agent's own labels. Labels of other
// domains are the node's to set.
func forbiddenLabels(modified []string) []string {
	var out []string
	for _, k := range modified {
		domain := labelNamespace(k)
		switch {
		case inDomain(domain, restrictedDomain):
			out = append(out, k)
		case inDomain(domain, labelDomain) && !isAgentLabel(k, domain):
			out = append(out, k)
		}
	}
	return out
}

func isAgentLabel(key, domain string) bool {
	if slices.Contains(agentLabels, key) {
		return true
	}
	for _, d := range agentDomains {
		if inDomain(domain, d) {
			return true
		}
	}
	return false
}

// inDomain reports whether namespace is d or a subdomain of it.
func inDomain(namespace, d string) bool {
	return namespace == d || strings.HasSuffix(namespace, "."+d)
}

// labelNamespace is the prefix of a label key before its "/", or "".
func labelNamespace(key string) string {
	ns, _, ok := strings.Cut(key, "/")
	if !ok {
		return ""
	}
	return ns
}
