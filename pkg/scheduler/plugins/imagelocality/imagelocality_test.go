package imagelocality

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func TestScore(t *testing.T) {
	tests := []struct {
		name  string
		pod   *corev1.Pod
		nodes []*corev1.Node
		want  framework.NodeScoreList
	}{
		{
			// a: 40 MiB * 1/2 = 20 MiB < 23 MiB: 0.
			// b: 250 MiB * 1/2 = 125 MiB: 100 * (125 - 23) / (2000 - 23) = 5.
			name: "two images on two nodes, the larger wins",
			pod:  st.MakePod().Container("gcr.io/40").Container("gcr.io/250").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Images(map[string]int64{"gcr.io/40:latest": 40 * mb, "gcr.io/300:latest": 300 * mb}).Obj(),
				st.MakeNode().Name("b").Images(map[string]int64{"gcr.io/250:latest": 250 * mb, "gcr.io/10:latest": 10 * mb}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 0}, {Name: "b", Score: 5}},
		},
		{
			// a: (40 + 300) / 2 = 170 MiB: 100 * (170 - 23) / 1977 = 7.
			name: "two images on one node",
			pod:  st.MakePod().Container("gcr.io/40").Container("gcr.io/300").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Images(map[string]int64{"gcr.io/40:latest": 40 * mb, "gcr.io/300:latest": 300 * mb}).Obj(),
				st.MakeNode().Name("b").Images(map[string]int64{"gcr.io/250:latest": 250 * mb}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 7}, {Name: "b", Score: 0}},
		},
		{
			// 3000 MiB on every node is capped at 1000 MiB * 1 container: 100.
			name: "capped at the per-container limit",
			pod:  st.MakePod().Container("gcr.io/3000").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Images(map[string]int64{"gcr.io/3000:latest": 3000 * mb}).Obj(),
				st.MakeNode().Name("b").Images(map[string]int64{"gcr.io/3000:latest": 3000 * mb}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 100}},
		},
		{
			// a: 500 MiB, on every node: 100 * (500 - 23) / (2000 - 23) = 24.
			name: "init containers count",
			pod:  st.MakePod().InitContainer("gcr.io/init:v1").Container("gcr.io/app:v1").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Images(map[string]int64{"gcr.io/init:v1": 500 * mb}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 24}},
		},
		{
			// Each 600 MiB image on its node is found under the other spelling:
			// 600 * 1/2 = 300 MiB: 100 * (300 - 23) / (2000 - 23) = 14.
			name: "default registry spellings match",
			pod:  st.MakePod().Container("nginx").Container("docker.io/library/redis:6").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Image(600*mb, "docker.io/library/nginx:latest").Obj(),
				st.MakeNode().Name("b").Image(600*mb, "redis:6").Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 14}, {Name: "b", Score: 14}},
		},
		{
			name: "tags must match",
			pod:  st.MakePod().Container("gcr.io/app:v2").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Images(map[string]int64{"gcr.io/app:v1": 900 * mb}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 0}},
		},
		{
			name: "an image known by several names counts once",
			pod:  st.MakePod().Container("app").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Image(523*mb, "app:latest", "docker.io/library/app:latest").Obj(),
			},
			// 523 MiB on the only node: 100 * (523 - 23) / (1000 - 23) = 51.
			want: framework.NodeScoreList{{Name: "a", Score: 51}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := st.NewSnapshot(nil, tt.nodes)
			p, err := New(nil, st.NewHandle(snap))
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*ImageLocality)
			ctx, state := context.Background(), framework.NewCycleState()
			if s := pl.PreScore(ctx, state, tt.pod, snap.List()); !s.IsSuccess() {
				t.Fatalf("PreScore = %v", s.Message())
			}
			var got framework.NodeScoreList
			for _, n := range tt.nodes {
				score, s := pl.Score(ctx, state, tt.pod, snap.NodeInfo(n.Name))
				if !s.IsSuccess() {
					t.Fatalf("Score(%s) = %v", n.Name, s.Message())
				}
				// Without PreScore's state the score is the same.
				if again, _ := pl.Score(ctx, framework.NewCycleState(), tt.pod, snap.NodeInfo(n.Name)); again != score {
					t.Errorf("Score(%s) without PreScore = %d, with = %d", n.Name, again, score)
				}
				got = append(got, framework.NodeScore{Name: n.Name, Score: score})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		image string
		want  []string
	}{
		{image: "nginx", want: []string{"nginx:latest", "docker.io/nginx:latest", "library/nginx:latest", "docker.io/library/nginx:latest"}},
		{image: "docker.io/library/nginx:1.25", want: []string{"docker.io/library/nginx:1.25", "nginx:1.25", "docker.io/nginx:1.25", "library/nginx:1.25"}},
		{image: "team/app", want: []string{"team/app:latest", "docker.io/team/app:latest"}},
		{image: "gcr.io/team/app", want: []string{"gcr.io/team/app:latest"}},
		{image: "localhost:5000/app", want: []string{"localhost:5000/app:latest"}},
		{image: "app@sha256:abc", want: []string{"app@sha256:abc", "docker.io/app@sha256:abc", "library/app@sha256:abc", "docker.io/library/app@sha256:abc"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Names(tt.image)); diff != "" {
			t.Errorf("Names(%q) (-want +got):\n%s", tt.image, diff)
		}
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New(json.RawMessage(`{"threshold": 1}`), nil); err == nil {
		t.Errorf("New accepted an unknown field")
	}
}
