package runtime

import (
	"fmt"

	"platform.io/platform/pkg/scheduler/framework"
)

// extensionPoint is what building a profile needs to know of one
// extension point, by its configuration name: whether a plugin implements
// it, how to add one to the Framework, and the names of those added.
type extensionPoint struct {
	implements func(pl framework.Plugin) bool
	add        func(f *Framework, w weighted)
	names      func(f *Framework) []string
}

// pluginList is the extension point of plugins of type P that the
// Framework keeps in the list that list returns.
func pluginList[P framework.Plugin](list func(f *Framework) *[]P) extensionPoint {
	return extensionPoint{
		implements: isA[P],
		add: func(f *Framework, w weighted) {
			l := list(f)
			*l = append(*l, w.pl.(P))
		},
		names: func(f *Framework) []string {
			var out []string
			for _, pl := range *list(f) {
				out = append(out, pl.Name())
			}
			return out
		},
	}
}

func isA[P framework.Plugin](pl framework.Plugin) bool {
	_, ok := pl.(P)
	return ok
}

// extensionPoints are the points a profile enables plugins at, but
// multiPoint. queueSort takes one plugin, which assign sets; a score
// plugin keeps its weight (at least 1), shown as "name:weight".
var extensionPoints = map[string]extensionPoint{
	"queueSort": {
		implements: isA[framework.QueueSortPlugin],
		names:      func(f *Framework) []string { return []string{f.queueSort.Name()} },
	},
	"preFilter":  pluginList(func(f *Framework) *[]framework.PreFilterPlugin { return &f.preFilter }),
	"filter":     pluginList(func(f *Framework) *[]framework.FilterPlugin { return &f.filter }),
	"postFilter": pluginList(func(f *Framework) *[]framework.PostFilterPlugin { return &f.postFilter }),
	"preScore":   pluginList(func(f *Framework) *[]framework.PreScorePlugin { return &f.preScore }),
	"score": {
		implements: isA[framework.ScorePlugin],
		add: func(f *Framework, w weighted) {
			f.score = append(f.score, scorePlugin{ScorePlugin: w.pl.(framework.ScorePlugin), weight: int64(max(w.weight, 1))})
		},
		names: func(f *Framework) []string {
			var out []string
			for _, p := range f.score {
				out = append(out, fmt.Sprintf("%s:%d", p.Name(), p.weight))
			}
			return out
		},
	},
	"reserve":  pluginList(func(f *Framework) *[]framework.ReservePlugin { return &f.reserve }),
	"permit":   pluginList(func(f *Framework) *[]framework.PermitPlugin { return &f.permit }),
	"preBind":  pluginList(func(f *Framework) *[]framework.PreBindPlugin { return &f.preBind }),
	"bind":     pluginList(func(f *Framework) *[]framework.BindPlugin { return &f.bind }),
	"postBind": pluginList(func(f *Framework) *[]framework.PostBindPlugin { return &f.postBind }),
}

// implements reports whether pl implements the named extension point.
func implements(point string, pl framework.Plugin) bool {
	ep, ok := extensionPoints[point]
	return ok && ep.implements(pl)
}

// PluginNames lists the plugins per extension point, for logs and tests;
// a point without plugins is absent.
func (f *Framework) PluginNames() map[string][]string {
	out := map[string][]string{}
	for point, ep := range extensionPoints {
		if names := ep.names(f); len(names) > 0 {
			out[point] = names
		}
	}
	return out
}
