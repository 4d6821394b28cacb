// Package nodelifecycle is the cloud-node-lifecycle loop: every
// --node-monitor-period it asks the provider about each node that is not
// Ready; a node whose instance no longer exists is deleted, one whose
// instance is shut down gets the node.cloudprovider.platform.io/shutdown
// taint, which goes when the instance runs again or the node is Ready.
package nodelifecycle
