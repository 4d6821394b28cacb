package status

import (
	"encoding/json"
	"net/http"

	"platform.io/client/api/meta"
)

// New returns a failure Status with the code, reason and message.
func New(code int, reason meta.StatusReason, message string) meta.Status {
	return meta.Status{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   meta.StatusFailure,
		Message:  message,
		Reason:   reason,
		Code:     int32(code),
	}
}

// Write sends st as JSON with its code.
func Write(w http.ResponseWriter, st meta.Status) {
	data, err := json.Marshal(st)
	if err != nil {
		http.Error(w, st.Message, int(st.Code))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(int(st.Code))
	w.Write(append(data, '\n'))
}

// Unauthorized answers 401.
func Unauthorized(w http.ResponseWriter) {
	Write(w, New(http.StatusUnauthorized, meta.StatusReasonUnauthorized, "Unauthorized"))
}

// Forbidden answers 403 with message.
func Forbidden(w http.ResponseWriter, message string) {
	Write(w, New(http.StatusForbidden, meta.StatusReasonForbidden, message))
}

// InternalError answers 500 with the error's text.
func InternalError(w http.ResponseWriter, err error) {
	Write(w, New(http.StatusInternalServerError, meta.StatusReasonInternalError,
		"Internal error occurred: "+err.Error()))
}
