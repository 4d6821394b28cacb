package options

import "platform.io/platform/pkg/component/featuregate"

// The API server's feature gates. Each one switches a behaviour off as
// upstream's did: DryRun off rejects dryRun requests with 400,
// APIListChunking off ignores limit and continue (lists return every item),
// RemainingItemCount off leaves metadata.remainingItemCount unset,
// ServerSideApply off answers apply patches with 415 and stops keeping
// metadata.managedFields (writes store them as sent).
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
