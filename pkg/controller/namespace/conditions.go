package namespace

import (
	"fmt"
	"sort"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/discovery"
)

// outcome is what one pass over a namespace's content found.
type outcome struct {
	// discoveryFailure says why some served resources could not be
	// discovered, "" when all were.
	discoveryFailure string
	// contentErrors are the failures of deleting or listing, per resource.
	contentErrors []string
	// remaining counts the objects left per resource ("pods.", "deployments.apps").
	remaining map[string]int
	// finalizers counts the objects left per finalizer.
	finalizers map[string]int
}

// conditions returns the namespace conditions that describe o, with
// upstream's reasons and messages. Group-version parsing cannot fail here:
// discovery hands over parsed group versions.
func conditions(o outcome) []corev1.NamespaceCondition {
	out := make([]corev1.NamespaceCondition, 0, 5)
	ok := func(t corev1.NamespaceConditionType, reason, msg string) {
		out = append(out, corev1.NamespaceCondition{Type: t, Status: corev1.ConditionFalse, Reason: reason, Message: msg})
	}
	bad := func(t corev1.NamespaceConditionType, reason, msg string) {
		out = append(out, corev1.NamespaceCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason, Message: msg})
	}
	if o.discoveryFailure != "" {
		bad(corev1.NamespaceDeletionDiscoveryFailure, "DiscoveryFailed", o.discoveryFailure)
	} else {
		ok(corev1.NamespaceDeletionDiscoveryFailure, "ResourcesDiscovered", "All resources successfully discovered")
	}
	ok(corev1.NamespaceDeletionGVParsingFailure, "ParsedGroupVersions", "All legacy kube types successfully parsed")
	if len(o.contentErrors) > 0 {
		errs := append([]string(nil), o.contentErrors...)
		sort.Strings(errs)
		bad(corev1.NamespaceDeletionContentFailure, "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %s", len(errs), strings.Join(errs, ", ")))
	} else {
		ok(corev1.NamespaceDeletionContentFailure, "ContentDeleted", "All content successfully deleted, may be waiting on finalization")
	}
	if len(o.remaining) > 0 {
		bad(corev1.NamespaceContentRemaining, "SomeResourcesRemain",
			"Some resources are remaining: "+counts(o.remaining, "%s has %d resource instances"))
	} else {
		ok(corev1.NamespaceContentRemaining, "ContentRemoved", "All content successfully removed")
	}
	if len(o.finalizers) > 0 {
		bad(corev1.NamespaceFinalizersRemaining, "SomeFinalizersRemain",
			"Some content in the namespace has finalizers remaining: "+counts(o.finalizers, "%s in %d resource instances"))
	} else {
		ok(corev1.NamespaceFinalizersRemaining, "ContentHasNoFinalizers", "All content-preserving finalizers finished")
	}
	return out
}

// discoveryFailure is the message of a failed discovery, as upstream words
// it: the error when /api or /apis could not be read, else the group
// versions that could not; "" when nothing failed.
func discoveryFailure(snap discovery.Snapshot, err error) string {
	if err != nil {
		return err.Error()
	}
	if len(snap.Failed) == 0 {
		return ""
	}
	parts := make([]string, 0, len(snap.Failed))
	for gv, e := range snap.Failed {
		parts = append(parts, fmt.Sprintf("%s: %v", gv, e))
	}
	sort.Strings(parts)
	return fmt.Sprintf("Discovery failed for some groups, %d failing: unable to retrieve the complete list of server APIs: %s",
		len(parts), strings.Join(parts, ", "))
}

// counts renders m sorted by key, each entry with format, joined by ", ".
func counts(m map[string]int, format string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(format, k, m[k])
	}
	return strings.Join(parts, ", ")
}

// mergeConditions returns cur with every condition of want set, keeping
// a condition's lastTransitionTime while its status does not change, and
// whether anything changed.
func mergeConditions(cur, want []corev1.NamespaceCondition, now meta.Time) ([]corev1.NamespaceCondition, bool) {
	out := append([]corev1.NamespaceCondition(nil), cur...)
	changed := false
	for _, w := range want {
		i := indexOf(out, w.Type)
		if i < 0 {
			w.LastTransitionTime = now
			out = append(out, w)
			changed = true
			continue
		}
		c := out[i]
		if c.Status == w.Status && c.Reason == w.Reason && c.Message == w.Message {
			continue
		}
		w.LastTransitionTime = c.LastTransitionTime
		if c.Status != w.Status {
			w.LastTransitionTime = now
		}
		out[i] = w
		changed = true
	}
	return out, changed
}

func indexOf(cs []corev1.NamespaceCondition, t corev1.NamespaceConditionType) int {
	for i, c := range cs {
		if c.Type == t {
			return i
		}
	}
	return -1
}
