package etcd3

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// ProgressNotifyReliable reports whether every etcd member orders requested
// progress notifications after the events before them. Releases before
// 3.4.31 and 3.5.13 may send a notification ahead of pending events, so a
// cache that trusted it could claim a revision it has not seen.
func (s *Store) ProgressNotifyReliable(ctx context.Context) (bool, []string, error) {
	var versions []string
	reliable := true
	for _, ep := range s.client.Endpoints() {
		resp, err := s.client.Status(ctx, ep)
		if err != nil {
			return false, nil, fmt.Errorf("etcd status of %s: %w", ep, err)
		}
		versions = append(versions, resp.Version)
		if !progressOrdered(resp.Version) {
			reliable = false
		}
	}
	s.trustProgress.Store(reliable)
	return reliable, versions, nil
}

// progressOrdered reports whether an etcd version has the ordering fixes.
func progressOrdered(version string) bool {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 3 {
		return false
	}
	nums := make([]int, 3)
	for i, p := range parts {
		end := strings.IndexFunc(p, func(r rune) bool { return r < '0' || r > '9' })
		if end >= 0 {
			p = p[:end]
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		nums[i] = n
	}
	major, minor, patch := nums[0], nums[1], nums[2]
	switch {
	case major != 3:
		return major > 3
	case minor == 4:
		return patch >= 31
	case minor == 5:
		return patch >= 13
	default:
		return minor > 5
	}
}
