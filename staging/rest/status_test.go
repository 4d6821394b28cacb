package rest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

func TestStatusErrors(t *testing.T) {
	cms := corev1.Resource("configmaps")
	type check func(error) bool
	tests := []struct {
		name     string
		reply    http.HandlerFunc
		is       check
		isNot    []check
		wantCode int32
		wantMsg  string
	}{
		{"404 json", func(w http.ResponseWriter, r *http.Request) { writeJSONStatus(w, apierrors.NewNotFound(cms, "a")) },
			apierrors.IsNotFound, nil, 404, `configmaps "a" not found`},
		{"404 protobuf", func(w http.ResponseWriter, r *http.Request) { writeProtoStatus(w, apierrors.NewNotFound(cms, "a")) },
			apierrors.IsNotFound, nil, 404, `configmaps "a" not found`},
		{"409 conflict", func(w http.ResponseWriter, r *http.Request) {
			writeJSONStatus(w, apierrors.NewConflict(cms, "a", errors.New("the object has been modified")))
		}, apierrors.IsConflict, []check{apierrors.IsAlreadyExists}, 409, "the object has been modified"},
		{"409 already exists", func(w http.ResponseWriter, r *http.Request) {
			writeProtoStatus(w, apierrors.NewAlreadyExists(cms, "a"))
		},
			apierrors.IsAlreadyExists, []check{apierrors.IsConflict}, 409, "already exists"},
		{"410 expired", func(w http.ResponseWriter, r *http.Request) {
			writeJSONStatus(w, apierrors.NewResourceExpired("too old resource version: 1 (5)"))
		}, apierrors.IsResourceExpired, []check{apierrors.IsGone}, 410, "too old"},
		{"422 invalid", func(w http.ResponseWriter, r *http.Request) {
			writeJSONStatus(w, apierrors.NewInvalid(corev1.Kind("ConfigMap"), "a", []meta.StatusCause{{Field: "data", Message: "bad"}}))
		}, apierrors.IsInvalid, nil, 422, "data: bad"},
		{"status without code", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"no"}`))
		}, apierrors.IsForbidden, nil, 403, "no"},
		{"plain text 404", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "404 page not found", http.StatusNotFound) },
			apierrors.IsNotFound, nil, 404, "404 page not found"},
		{"json that is not a status", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":"boom"}`))
		}, func(err error) bool { return apierrors.ReasonForError(err) == meta.StatusReasonInternalError }, nil, 500, "boom"},
		{"bad gateway html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte{0xff, 0x00})
		}, func(err error) bool { return apierrors.CodeForError(err) == 502 }, nil, 502, "502 Bad Gateway"},
		{"401 empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) },
			apierrors.IsUnauthorized, nil, 401, "Unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.reply)
			defer srv.Close()
			c := testClient(t, srv, nil)
			err := c.Get().Version("v1").Namespace("ns").Resource("configmaps").Name("a").Do(t.Context()).Into(&corev1.ConfigMap{})
			var se *apierrors.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a StatusError", err, err)
			}
			if !tt.is(err) {
				t.Errorf("predicate false for %+v", se.ErrStatus)
			}
			for _, not := range tt.isNot {
				if not(err) {
					t.Errorf("a wrong predicate holds for %+v", se.ErrStatus)
				}
			}
			if se.ErrStatus.Code != tt.wantCode {
				t.Errorf("code = %d, want %d", se.ErrStatus.Code, tt.wantCode)
			}
			if !strings.Contains(se.Error(), tt.wantMsg) {
				t.Errorf("message %q lacks %q", se.Error(), tt.wantMsg)
			}
		})
	}
}

func TestSuccessStatusBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := meta.Status{TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: meta.StatusSuccess, Code: 200}
		writeProtoStatusOK(w, st)
	}))
	defer srv.Close()
	c := testClient(t, srv, nil)
	var st meta.Status
	if err := c.Delete().Version("v1").Namespace("ns").Resource("configmaps").Name("a").Do(t.Context()).Into(&st); err != nil {
		t.Fatal(err)
	}
	if st.Status != meta.StatusSuccess || st.Kind != "Status" {
		t.Fatalf("status = %+v", st)
	}
}

func writeProtoStatusOK(w http.ResponseWriter, st meta.Status) {
	se := apierrors.FromStatus(st)
	writeProtoStatus(w, se)
}
