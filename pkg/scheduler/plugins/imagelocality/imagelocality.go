package imagelocality

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in configuration.
const Name = "ImageLocality"

// The thresholds of the score, as upstream: image bytes below minThreshold
// score 0; maxContainerThreshold per container scores 100.
const (
	mb                    int64 = 1024 * 1024
	minThreshold          int64 = 23 * mb
	maxContainerThreshold int64 = 1000 * mb
)

// ImageLocality scores nodes by the pod's images they already have.
type ImageLocality struct {
	h framework.Handle
}

var (
	_ framework.PreScorePlugin = (*ImageLocality)(nil)
	_ framework.ScorePlugin    = (*ImageLocality)(nil)
)

// preScoreKey holds the pod's images, each under all its names.
const preScoreKey framework.StateKey = "PreScore" + Name

// preScoreState is the names of each of the pod's images, with how many
// nodes the snapshot has; never changed after PreScore.
type preScoreState struct {
	names [][]string
	total int
}

// Clone shares the state: it is read-only.
func (s *preScoreState) Clone() framework.StateData { return s }

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, h framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return &ImageLocality{h: h}, nil
}

// Name returns Name.
func (*ImageLocality) Name() string { return Name }

// Score sums, over the pod's init and regular containers whose image the
// node has, the image size times the share of nodes that have it; clamps
// the sum to [23 MiB, 1000 MiB * containers] and maps it linearly to
// 0..100.
func (pl *ImageLocality) Score(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	containers := len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	if len(ni.ImageStates) == 0 {
		return priority(0, containers), nil
	}
	s, err := framework.ReadState[*preScoreState](cs, preScoreKey)
	if err != nil {
		s = pl.podImages(pod)
	}
	var sum int64
	for _, names := range s.names {
		if st := lookup(ni.ImageStates, names); st != nil {
			sum += scaled(st, s.total)
		}
	}
	return priority(sum, containers), nil
}

// PreScore works out the names of the pod's images once for all nodes.
func (pl *ImageLocality) PreScore(_ context.Context, cs *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	cs.Write(preScoreKey, pl.podImages(pod))
	return nil
}

// podImages lists the names of the images of the pod's init and regular
// containers (none for a container without an image).
func (pl *ImageLocality) podImages(pod *corev1.Pod) *preScoreState {
	s := &preScoreState{total: len(pl.h.SnapshotSharedLister().List())}
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			if cs[i].Image != "" {
				s.names = append(s.names, Names(cs[i].Image))
			}
		}
	}
	return s
}

// ScoreExtensions returns nil: scores are already 0..100.
func (*ImageLocality) ScoreExtensions() framework.ScoreExtensions { return nil }

// scaled is the image's size times the share of nodes that have it.
func scaled(st *framework.ImageStateSummary, totalNodes int) int64 {
	if totalNodes == 0 {
		return 0
	}
	return int64(float64(st.Size) * float64(st.NumNodes) / float64(totalNodes))
}

// priority clamps sum and maps it to 0..100.
func priority(sum int64, containers int) int64 {
	hi := maxContainerThreshold * int64(containers)
	if hi <= minThreshold {
		return 0
	}
	sum = min(max(sum, minThreshold), hi)
	return framework.MaxNodeScore * (sum - minThreshold) / (hi - minThreshold)
}

// lookup finds an image under any of its equivalent names.
func lookup(states map[string]*framework.ImageStateSummary, names []string) *framework.ImageStateSummary {
	for _, name := range names {
		if st, ok := states[name]; ok {
			return st
		}
	}
	return nil
}

// Names returns the names image may be listed under in node.status.images:
// with ":latest" when it has no tag or digest (upstream's
// normalizedImageName), and for images on the default registry with and
// without the "docker.io/" and "docker.io/library/" prefixes, since
// runtimes report either form.
func Names(image string) []string {
	if strings.LastIndex(image, ":") <= strings.LastIndex(image, "/") && !strings.Contains(image, "@") {
		image += ":latest"
	}
	short := image
	switch {
	case strings.HasPrefix(short, "docker.io/library/"):
		short = strings.TrimPrefix(short, "docker.io/library/")
	case strings.HasPrefix(short, "docker.io/"):
		short = strings.TrimPrefix(short, "docker.io/")
	case strings.HasPrefix(short, "index.docker.io/"):
		short = strings.TrimPrefix(short, "index.docker.io/")
	}
	if hasRegistry(short) {
		return []string{image}
	}
	short = strings.TrimPrefix(short, "library/")
	names := []string{image}
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add(short)
	add("docker.io/" + short)
	if !strings.Contains(short, "/") {
		add("library/" + short)
		add("docker.io/library/" + short)
	}
	return names
}

// hasRegistry reports a first path component that names a registry host
// (it has a dot or a port, or is localhost).
func hasRegistry(name string) bool {
	first, _, found := strings.Cut(name, "/")
	return found && (strings.ContainsAny(first, ".:") || first == "localhost")
}
