package framework

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultNormalizeScore(t *testing.T) {
	tests := []struct {
		name    string
		reverse bool
		in      []int64
		want    []int64
	}{
		{name: "none", in: nil, want: nil},
		{name: "scaled by the largest", in: []int64{0, 1, 2, 4}, want: []int64{0, 25, 50, 100}},
		{name: "rounded down", in: []int64{1, 3}, want: []int64{33, 100}},
		{name: "all zero stay zero", in: []int64{0, 0}, want: []int64{0, 0}},
		{name: "reversed", reverse: true, in: []int64{0, 1, 2, 4}, want: []int64{100, 75, 50, 0}},
		{name: "all zero reversed are the best", reverse: true, in: []int64{0, 0}, want: []int64{100, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var scores NodeScoreList
			for i, s := range tc.in {
				scores = append(scores, NodeScore{Name: string(rune('a' + i)), Score: s})
			}
			DefaultNormalizeScore(MaxNodeScore, tc.reverse, scores)
			var got []int64
			for _, s := range scores {
				got = append(got, s.Score)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}
