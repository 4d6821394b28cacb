package options

import "platform.io/platform/pkg/component/featuregate"

// The API server's feature gates.
const (
	DryRun             featuregate.Feature = "DryRun"
	APIListChunking    featuregate.Feature = "APIListChunking"
	RemainingItemCount featuregate.Feature = "RemainingItemCount"
	ServerSideApply    featuregate.Feature = "ServerSideApply"
)

// NewFeatureGate returns the API server's gates at their defaults.
func NewFeatureGate() *featuregate.Gate {
	return featuregate.New(map[featuregate.Feature]featuregate.Spec{
		DryRun:             {Default: true, PreRelease: featuregate.Beta},
		APIListChunking:    {Default: true, PreRelease: featuregate.Beta},
		RemainingItemCount: {Default: true, PreRelease: featuregate.Beta},
		ServerSideApply:    {Default: true, PreRelease: featuregate.Beta},
	})
}
