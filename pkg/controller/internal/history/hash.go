package history

import (
	"hash/fnv"
	"strconv"
)

// HashLabel is the label, on a revision and on every pod made from it,
// that holds the revision's hash.
const HashLabel = "controller-revision-hash"

// safeAlphabet has no vowels (no words by accident) and no characters that
// are easily confused (0, 1, 3).
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// Hash returns the name suffix of a revision holding data: FNV-32a of the
// data, then of the collision count when there is one, written in decimal
// and mapped onto safeAlphabet so the result is a valid label value and
// name part.
func Hash(data []byte, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(data)
	if collisionCount != nil {
		h.Write([]byte(strconv.FormatInt(int64(*collisionCount), 10)))
	}
	digits := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(digits))
	for i := range digits {
		out[i] = safeAlphabet[int(digits[i])%len(safeAlphabet)]
	}
	return string(out)
}

// Name returns the name of parent's revision with hash.
func Name(parent, hash string) string {
	return parent + "-" + hash
}
