// Package cloudprovider holds what the cloud controller manager's loops
// share: the Context they are built from (the daemon's dependencies plus
// the cloud provider and the cluster's name) and their Descriptor table
// entry. The provider interface itself is platform.io/client/cloudprovider;
// subpackages hold the plugin client (plugin) and one package per loop.
package cloudprovider
