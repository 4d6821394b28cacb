package options

import "platform.io/platform/pkg/component/featuregate"

// The API server's feature gates. Each one switches a behaviour off as
// upstream's did: DryRun off rejects dryRun requests with 400,
// APIListChunking off ignores limit and continue (lists return every item),
// RemainingItemCount off leaves metadata.remainingItemCount unset. There is
// no ServerSideApply gate: a gate that changes nothing is not accepted, and
// server-side apply is not served yet.
const (
	DryRun             featuregate.Feature = "DryRun"
	APIListChunking    featuregate.Feature = "APIListChunking"
	RemainingItemCount featuregate.Feature = "RemainingItemCount"
)

// NewFeatureGate returns the API server's gates at their defaults.
func NewFeatureGate() *featuregate.Gate {
	return featuregate.New(map[featuregate.Feature]featuregate.Spec{
		DryRun:             {Default: true, PreRelease: featuregate.Beta},
		APIListChunking:    {Default: true, PreRelease: featuregate.Beta},
		RemainingItemCount: {Default: true, PreRelease: featuregate.Beta},
	})
}
