package plugins

import (
	"testing"

	"platform.io/platform/pkg/scheduler/config"
)

// TestDefaultProfileIsRegistered checks that every plugin of the default
// profile is in the registry under the name the profile uses.
func TestDefaultProfileIsRegistered(t *testing.T) {
	reg := NewRegistry()
	for _, p := range config.DefaultPlugins().MultiPoint.Enabled {
		if _, ok := reg[p.Name]; !ok {
			t.Errorf("default plugin %q is not registered", p.Name)
		}
	}
}
