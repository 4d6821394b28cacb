// Package plugins is the table of the scheduler's in-tree plugins: one
// package per plugin below this one, each registered here by its name.
package plugins
