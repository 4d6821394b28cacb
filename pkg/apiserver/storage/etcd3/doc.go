// Package etcd3 implements storage.Interface on an etcd v3 cluster. Keys map
// one to one onto etcd keys, an object's revision is etcd's modification
// revision, creates are transactions on an absent key, and updates and deletes
// are compare-and-swap on the modification revision.
package etcd3
