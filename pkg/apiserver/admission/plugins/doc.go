// Package plugins is the table of the API server's admission plugins: each
// one's upstream name, whether it is on by default, and how it is built
// from the server's dependencies. The table's order is the order the
// plugins run in, whatever order the flags name them in.
package plugins
