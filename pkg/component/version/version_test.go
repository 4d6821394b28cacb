package version

import (
	"runtime"
	"testing"
)

func TestUserAgent(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		info Info
		want string
	}{
		{"stamped", Info{GitVersion: "v1.32.0-platform.abc", GitCommit: "0123456789abcdef", Platform: platform},
			"platform-scheduler/v1.32.0-platform.abc (" + platform + ") platform/0123456"},
		{"short commit", Info{GitVersion: "v1", GitCommit: "abc", Platform: platform},
			"platform-scheduler/v1 (" + platform + ") platform/abc"},
		{"not stamped", Info{GitVersion: "v1.32.0-platform.dev", Platform: platform},
			"platform-scheduler/v1.32.0-platform.dev (" + platform + ") platform/unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.info.UserAgent("platform-scheduler"); got != tc.want {
				t.Errorf("UserAgent = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestGetReadsLinkedValues: Get reports the variables the linker sets.
func TestGetReadsLinkedValues(t *testing.T) {
	saved := [4]string{gitVersion, gitCommit, gitTreeState, buildDate}
	t.Cleanup(func() { gitVersion, gitCommit, gitTreeState, buildDate = saved[0], saved[1], saved[2], saved[3] })
	gitVersion, gitCommit, gitTreeState, buildDate = "v9", "c0ffee", "dirty", "2026-01-01T00:00:00Z"
	got := Get()
	if got.GitVersion != "v9" || got.GitCommit != "c0ffee" || got.GitTreeState != "dirty" || got.BuildDate != "2026-01-01T00:00:00Z" {
		t.Fatalf("Get() = %+v", got)
	}
	if got.String() != "v9" {
		t.Errorf("String() = %q", got.String())
	}
}
