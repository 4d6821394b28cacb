package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestControllerManagerFailover runs two controller managers with leader
// election and kills the leader while a 150-replica Deployment is being
// created: the successor finishes the rollout, and no loop acted twice,
// which would show as more pods created than replicas (and then deleted),
// or as a pod created by a ReplicaSet other than the Deployment's one.
func TestControllerManagerFailover(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.StartProcess(t, "platform-simnode", "--nodes=5", "--readiness-delay=100ms", "--pods=110")
	s.StartProcess(t, "platform-scheduler", "--bind-address", "127.0.0.1", "--port=0", "--secure-port", fmt.Sprint(freePort(t)),
		"--leader-elect=false")
	flags := []string{"--bind-address", "127.0.0.1", "--leader-elect-lease-duration=3s",
		"--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=250ms",
		// The default 20 QPS would let the kill land before any pod exists.
		"--platform-api-qps=50", "--platform-api-burst=50"}
	managers := []*Process{
		s.StartProcess(t, "platform-controller-manager", append(flags, "--secure-port", fmt.Sprint(freePort(t)))...),
		s.StartProcess(t, "platform-controller-manager", append(flags, "--secure-port", fmt.Sprint(freePort(t)))...),
	}
	var leader, standby *Process
	Eventually(t, 30*time.Second, "a leading controller manager", func() string {
		for i, p := range managers {
			if data, _ := os.ReadFile(p.LogPath); strings.Contains(string(data), "started leading") {
				leader, standby = p, managers[1-i]
				return ""
			}
		}
		return "no controller manager logged started leading"
	})

	const replicas = 150
	s.MustKubectl(t, "create", "deployment", "fo", "--image=nginx:1.25", "--replicas="+strconv.Itoa(replicas))
	Eventually(t, 60*time.Second, "the rollout under way", func() string {
		if n := len(strings.Fields(s.field(t, "{.items[*].metadata.name}", "get", "pods", "-l", "app=fo"))); n < 20 {
			return fmt.Sprintf("%d pods", n)
		}
		return ""
	})
	leader.Kill()
	t.Logf("killed the leading controller manager (%s)", leader.LogPath)

	Eventually(t, 30*time.Second, "the standby leads", func() string {
		if data, _ := os.ReadFile(standby.LogPath); !strings.Contains(string(data), "started leading") {
			return "the standby did not log started leading"
		}
		return ""
	})
	Eventually(t, 120*time.Second, "the deployment available", func() string {
		return want(s.field(t, "{.status.availableReplicas}/{.status.updatedReplicas}/{.status.replicas}", "get", "deployment", "fo"),
			fmt.Sprintf("%d/%d/%d", replicas, replicas, replicas))
	})
	// Let the loops settle, then check that nothing was done twice.
	time.Sleep(2 * time.Second)
	var pods struct {
		Items []struct {
			Metadata struct {
				Name            string `json:"name"`
				OwnerReferences []struct {
					Name string `json:"name"`
				} `json:"ownerReferences"`
			} `json:"metadata"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(s.MustKubectl(t, "get", "pods", "-l", "app=fo", "-o", "json")), &pods); err != nil {
		t.Fatal(err)
	}
	owners := map[string]int{}
	for _, p := range pods.Items {
		for _, o := range p.Metadata.OwnerReferences {
			owners[o.Name]++
		}
	}
	if len(pods.Items) != replicas || len(owners) != 1 {
		t.Errorf("%d pods owned by %v, want %d pods of one ReplicaSet", len(pods.Items), owners, replicas)
	}
	if rs := strings.Fields(s.field(t, "{.items[*].metadata.name}", "get", "replicasets", "-l", "app=fo")); len(rs) != 1 {
		t.Errorf("replica sets %v, want one", rs)
	}
	deletes := s.field(t, "{range .items[?(@.reason==\"SuccessfulDelete\")]}{.involvedObject.name} {end}", "get", "events")
	if strings.TrimSpace(deletes) != "" {
		t.Errorf("pods were deleted (a loop created too many): %s", deletes)
	}
}
