package quota

import (
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// Add returns a + b, key by key.
func Add(a, b corev1.ResourceList) corev1.ResourceList {
	out := make(corev1.ResourceList, len(a)+len(b))
	for k, v := range a {
		out[k] = v.DeepCopy()
	}
	for k, v := range b {
		q := out[k]
		q.Add(v)
		out[k] = q
	}
	return out
}

// SubtractNonNegative returns a - b for the keys of a, none below zero.
func SubtractNonNegative(a, b corev1.ResourceList) corev1.ResourceList {
	out := make(corev1.ResourceList, len(a))
	for k, v := range a {
		q := v.DeepCopy()
		if s, ok := b[k]; ok {
			q.Sub(s)
		}
		if q.Sign() < 0 {
			q = resource.Quantity{}
		}
		out[k] = q
	}
	return out
}

// Mask returns the entries of l named in names.
func Mask(l corev1.ResourceList, names []corev1.ResourceName) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, n := range names {
		if q, ok := l[n]; ok {
			out[n] = q.DeepCopy()
		}
	}
	return out
}

// RemoveZeros returns l without its zero entries.
func RemoveZeros(l corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for k, v := range l {
		if !v.IsZero() {
			out[k] = v
		}
	}
	return out
}

// LessThanOrEqual reports whether every entry of a is at most b's entry
// of the same name (a name b lacks is not limited), and the names that
// are not, sorted.
func LessThanOrEqual(a, b corev1.ResourceList) (bool, []corev1.ResourceName) {
	var over []corev1.ResourceName
	for k, v := range a {
		if lim, ok := b[k]; ok && v.Cmp(lim) > 0 {
			over = append(over, k)
		}
	}
	slices.Sort(over)
	return len(over) == 0, over
}

// Equal reports whether a and b hold the same names with equal amounts.
func Equal(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// Names returns the names of l, sorted.
func Names(l corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Intersect returns the names in both a and b, sorted.
func Intersect(a, b []corev1.ResourceName) []corev1.ResourceName {
	var out []corev1.ResourceName
	for _, n := range a {
		if slices.Contains(b, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Format renders l as upstream's quota messages do: "name=amount" pairs
// sorted by name and joined with commas.
func Format(l corev1.ResourceList) string {
	parts := make([]string, 0, len(l))
	for _, k := range Names(l) {
		q := l[k]
		parts = append(parts, string(k)+"="+q.String())
	}
	return strings.Join(parts, ",")
}

// FormatNames renders names as upstream does: sorted and joined with commas.
func FormatNames(names []corev1.ResourceName) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	slices.Sort(s)
	return strings.Join(s, ",")
}

func one() resource.Quantity { return *resource.NewQuantity(1, resource.DecimalSI) }
