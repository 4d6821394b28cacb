// Package testing holds fixture builders for scheduler tests (import it as
// st): MakePod and MakeNode build API objects fluently, MakeLabelSelector
// builds selectors, and NewSnapshot and Handle give plugins a fixed cluster
// view without a cache or an API server. It is for tests only.
package testing
