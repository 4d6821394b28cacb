package registry

import (
	"platform.io/client/api/meta"
)

// success is the Status an Action answers with. It carries an unserialized
// ObjectMeta only so that it satisfies meta.Object.
type success struct {
	meta.Status
	objectMeta meta.ObjectMeta
}

func (s *success) GetObjectMeta() *meta.ObjectMeta { return &s.objectMeta }

// NewSuccess returns a Status of success with the HTTP code and message,
// as actions such as pods/binding and deployments/rollback answer.
func NewSuccess(code int32, message string) meta.Object {
	return &success{Status: meta.Status{
		TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   meta.StatusSuccess,
		Code:     code,
		Message:  message,
	}}
}

// StatusCode returns the HTTP code the Status asks to be answered with.
func (s *success) StatusCode() int32 { return s.Code }
