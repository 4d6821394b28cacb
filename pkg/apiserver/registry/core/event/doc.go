// Package event is the registry row of core/v1 events: short-lived reports
// that expire after the server's event TTL, checked the lenient way
// upstream checks events written through core/v1.
package event
