package nodeaffinity

import "platform.io/platform/pkg/scheduler/framework"

// normalize scales scores to [0, maxScore] by the largest one; reverse
// turns the scale round (the largest becomes 0). All zero scores become
// maxScore when reversed and stay 0 otherwise.
func normalize(maxScore int64, reverse bool, scores framework.NodeScoreList) {
	var top int64
	for i := range scores {
		top = max(top, scores[i].Score)
	}
	for i := range scores {
		s := int64(0)
		if top > 0 {
			s = maxScore * scores[i].Score / top
		}
		if reverse {
			s = maxScore - s
		}
		scores[i].Score = s
	}
}
