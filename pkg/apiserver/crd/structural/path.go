package structural

import (
	"strconv"
	"strings"
)

// path is the path of the value being validated, as a stack pushed and
// popped along the walk so that checking a valid object builds no
// strings; it is rendered only for an error, the way upstream's validator
// names values: properties and map keys joined by dots, list indexes in
// brackets ("spec.ports[0].name", "spec.labels.app").
type path []pathElem

type pathElem struct {
	key    string
	index  int // a list index when isItem
	isItem bool
}

func (v *run) push(e pathElem) { v.path = append(v.path, e) }
func (v *run) pop()            { v.path = v.path[:len(v.path)-1] }

// name renders the current path.
func (v *run) name() string {
	var b strings.Builder
	for _, e := range v.path {
		if e.isItem {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.key)
	}
	return b.String()
}
