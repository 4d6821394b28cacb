package deployment

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"

	corev1 "platform.io/client/api/core/v1"
)

// safeAlphabet is upstream's alphabet for generated name suffixes: no
// vowels (no words) and no easily confused characters.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// safeEncode maps every byte of s onto safeAlphabet.
func safeEncode(s string) string {
	out := make([]byte, len(s))
	for i := range len(s) {
		out[i] = safeAlphabet[int(s[i])%len(safeAlphabet)]
	}
	return string(out)
}

// canonical returns the JSON form of v with nulls, empty objects and empty
// arrays removed, so that two templates that differ only in how an absent
// value is written compare and hash alike.
func canonical(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return prune(tree), nil
}

func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if p := prune(e); p == nil {
				delete(x, k)
			} else {
				x[k] = p
			}
		}
		if len(x) == 0 {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
		for i, e := range x {
			x[i] = prune(e)
		}
	}
	return v
}

// ComputeHash is the pod-template-hash of tmpl: the 32-bit FNV-1a hash of
// its canonical encoding, then of collisionCount (little-endian, eight
// bytes) when set, written in decimal and mapped onto the safe alphabet.
func ComputeHash(tmpl *corev1.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	tree, err := canonical(tmpl)
	if err == nil {
		data, _ := json.Marshal(tree)
		h.Write(data)
	} else {
		fmt.Fprintf(h, "%#v", *tmpl)
	}
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		h.Write(b)
	}
	return safeEncode(fmt.Sprint(h.Sum32()))
}

// EqualIgnoreHash reports whether two templates are the same but for the
// pod-template-hash label.
func EqualIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	ac, bc := *a, *b
	ac.Labels, bc.Labels = withoutHash(a.Labels), withoutHash(b.Labels)
	ta, errA := canonical(&ac)
	tb, errB := canonical(&bc)
	if errA != nil || errB != nil {
		return false
	}
	return reflect.DeepEqual(ta, tb)
}

func withoutHash(l map[string]string) map[string]string {
	if _, ok := l[UniqueLabelKey]; !ok {
		return l
	}
	out := maps.Clone(l)
	delete(out, UniqueLabelKey)
	return out
}
