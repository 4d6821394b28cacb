package scheduler

import (
	"platform.io/platform/pkg/scheduler/config"
)

// twoProfiles is a configuration with the default profile and a second
// one without resource fitting.
func twoProfiles() *config.Configuration {
	return &config.Configuration{
		APIVersion: config.APIVersion, Kind: config.Kind,
		Profiles: []config.Profile{
			{SchedulerName: "default-scheduler"},
			{SchedulerName: "second-scheduler", Plugins: &config.Plugins{
				MultiPoint: config.PluginSet{Disabled: []config.Plugin{{Name: config.NodeResourcesFit}}},
			}},
		},
	}
}
