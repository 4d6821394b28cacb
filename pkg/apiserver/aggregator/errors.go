package aggregator

import "errors"

// errBadCABundle: the APIService's caBundle holds no PEM certificate.
var errBadCABundle = errors.New("aggregator: caBundle holds no PEM certificate")
