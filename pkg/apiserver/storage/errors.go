package storage

import (
	"errors"
	"fmt"
)

// Sentinel errors; match them with errors.Is.
var (
	ErrNotFound      = errors.New("storage: key not found")
	ErrAlreadyExists = errors.New("storage: key already exists")
	ErrConflict      = errors.New("storage: revision conflict")
	// ErrExpired means the requested revision has been compacted away.
	ErrExpired = errors.New("storage: revision compacted")
	// ErrUnavailable means the backend could not be reached.
	ErrUnavailable = errors.New("storage: backend unavailable")
	// ErrTooNew means a requested revision is newer than the store has reached.
	ErrTooNew = errors.New("storage: revision not reached yet")
	// ErrTooLarge means the value is larger than the backend takes in one request.
	ErrTooLarge = errors.New("storage: value too large")
	// ErrNoSpace means the backend refuses writes because its storage quota
	// is used up (etcd's NOSPACE alarm); reads still work, and writes work
	// again once an operator frees space and clears the alarm.
	ErrNoSpace = errors.New("storage: backend storage quota exceeded")
)

// KeyError ties a sentinel to the key and revision involved.
type KeyError struct {
	Err      error
	Key      string
	Revision int64
}

func (e *KeyError) Error() string {
	if e.Revision != 0 {
		return fmt.Sprintf("%v: %s at revision %d", e.Err, e.Key, e.Revision)
	}
	return fmt.Sprintf("%v: %s", e.Err, e.Key)
}

func (e *KeyError) Unwrap() error { return e.Err }

func keyError(err error, key string, rev int64) error {
	return &KeyError{Err: err, Key: key, Revision: rev}
}

// NewNotFound returns ErrNotFound for key.
func NewNotFound(key string) error { return keyError(ErrNotFound, key, 0) }

// NewAlreadyExists returns ErrAlreadyExists for key.
func NewAlreadyExists(key string, rev int64) error { return keyError(ErrAlreadyExists, key, rev) }

// NewExpired returns ErrExpired for a compacted revision.
func NewExpired(key string, rev int64) error { return keyError(ErrExpired, key, rev) }
