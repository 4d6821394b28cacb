package framework

// DefaultNormalizeScore scales scores in place to [0, maxScore] by the
// largest one (scores are taken to be non-negative); reverse turns the
// scale round, so that the largest becomes 0. When every score is 0 they
// stay 0, or all become maxScore when reversed.
func DefaultNormalizeScore(maxScore int64, reverse bool, scores NodeScoreList) {
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
