// Package jsonstring writes JSON strings byte for byte as encoding/json
// does with HTML escaping off. jsontree's encoder and the metadata types'
// hand-written encoders share it, so they quote strings the same way.
package jsonstring
