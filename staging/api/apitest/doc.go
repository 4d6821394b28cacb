// Package apitest holds checks shared by the API type packages' tests: that
// every field carries the json and protobuf tags the codecs rely on, and that
// objects survive a JSON round trip.
package apitest
