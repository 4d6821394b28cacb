package openapi

import (
	"os"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/registry/builtin"
)

func TestScratch(t *testing.T) {
	start := time.Now()
	s, err := Build(builtin.Resources(builtin.Config{}), Info{Title: "Platform", Version: "v1.32.0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("build %v v2 json %d proto %d gz %d", time.Since(start), len(s.v2.json), len(s.v2.proto), len(s.v2.gzProto))
	os.WriteFile("/tmp/oa/v2.json", s.v2.json, 0o644)
	os.WriteFile("/tmp/oa/disc.json", s.discovery.json, 0o644)
	for k, d := range s.v3 {
		t.Logf("%s %d", k, len(d.json))
		os.WriteFile("/tmp/oa/"+string([]byte(k)[len(k)-2:])+"-"+groupWord(k)+".json", d.json, 0o644)
	}
}
