// Package fields implements field selectors: the equality-only query language
// of the fieldSelector query parameter ("metadata.name=web,status.phase!=Failed"),
// with the backslash escaping upstream uses for ',', '=' and '\' in values.
package fields
