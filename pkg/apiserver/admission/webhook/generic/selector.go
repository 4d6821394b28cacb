package generic

import (
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

type metaSelector = meta.LabelSelector

// selector parses a webhook selector; nil selects everything, as the
// defaulted empty selector does.
func selector(s *meta.LabelSelector) (labels.Selector, error) {
	if s == nil {
		return labels.Everything(), nil
	}
	return labels.FromLabelSelector(s)
}
