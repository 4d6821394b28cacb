package apiservice

import (
	"strings"
	"testing"

	apiregv1 "platform.io/client/api/apiregistration/v1"
	"platform.io/client/api/meta"
)

func remote(mod func(*apiregv1.APIService)) *apiregv1.APIService {
	port := int32(8443)
	s := &apiregv1.APIService{
		ObjectMeta: meta.ObjectMeta{Name: "v1beta1.metrics.platform.io"},
		Spec: apiregv1.APIServiceSpec{
			Service: &apiregv1.ServiceReference{Namespace: "platform-system", Name: "metrics-server", Port: &port},
			Group:   "metrics.platform.io", Version: "v1beta1", CABundle: []byte("pem"),
			GroupPriorityMinimum: 100, VersionPriority: 100,
		},
	}
	if mod != nil {
		mod(s)
	}
	return s
}

func TestValidate(t *testing.T) {
	v := validator{local: func(g string) bool { return g == "apps" || g == "" }}
	tests := []struct {
		name string
		s    *apiregv1.APIService
		want []string // fields in error, in order
	}{
		{"valid remote", remote(nil), nil},
		{"valid local", remote(func(s *apiregv1.APIService) {
			s.Spec.Service, s.Spec.CABundle = nil, nil
			s.Name, s.Spec.Group, s.Spec.Version = "v1.apps", "apps", "v1"
		}), nil},
		{"name not version.group", remote(func(s *apiregv1.APIService) { s.Name = "metrics" }), []string{"metadata.name"}},
		{"empty group beyond v1", remote(func(s *apiregv1.APIService) {
			s.Name, s.Spec.Group, s.Spec.Version, s.Spec.Service = "v2.", "", "v2", nil
			s.Spec.CABundle = nil
		}), []string{"spec.group"}},
		{"bad group", remote(func(s *apiregv1.APIService) { s.Name, s.Spec.Group = "v1beta1.Bad_Group", "Bad_Group" }), []string{"spec.group"}},
		{"bad version", remote(func(s *apiregv1.APIService) { s.Name, s.Spec.Version = "1x.metrics.platform.io", "1x" }), []string{"spec.version"}},
		{"no version", remote(func(s *apiregv1.APIService) { s.Name, s.Spec.Version = ".metrics.platform.io", "" }), []string{"spec.version"}},
		{"priorities out of range", remote(func(s *apiregv1.APIService) { s.Spec.GroupPriorityMinimum, s.Spec.VersionPriority = 0, 1001 }),
			[]string{"spec.groupPriorityMinimum", "spec.versionPriority"}},
		{"local with TLS settings", remote(func(s *apiregv1.APIService) { s.Spec.Service, s.Spec.InsecureSkipTLSVerify = nil, true }),
			[]string{"spec.caBundle", "spec.insecureSkipTLSVerify"}},
		{"service without names or a good port", remote(func(s *apiregv1.APIService) {
			p := int32(0)
			s.Spec.Service = &apiregv1.ServiceReference{Port: &p}
		}), []string{"spec.service.namespace", "spec.service.name", "spec.service.port"}},
		{"skip verify with a CA", remote(func(s *apiregv1.APIService) { s.Spec.InsecureSkipTLSVerify = true }), []string{"spec.insecureSkipTLSVerify"}},
		{"remote for a local group", remote(func(s *apiregv1.APIService) { s.Name, s.Spec.Group, s.Spec.Version = "v2.apps", "apps", "v2" }), []string{"spec.service"}},
		{"bad condition", remote(func(s *apiregv1.APIService) {
			s.Status.Conditions = []apiregv1.APIServiceCondition{{Status: "Maybe"}}
		}), []string{"status.conditions[0].type", "status.conditions[0].status"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := v.validate(tc.s)
			var got []string
			for _, e := range errs {
				got = append(got, e.Field)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("errors on %v, want %v: %v", got, tc.want, errs)
			}
		})
	}
}

func TestColumns(t *testing.T) {
	tests := []struct {
		name           string
		s              *apiregv1.APIService
		service, avail string
	}{
		{"unchecked", remote(nil), "platform-system/metrics-server", "Unknown"},
		{"local", remote(func(s *apiregv1.APIService) {
			s.Spec.Service = nil
			s.Status.Conditions = []apiregv1.APIServiceCondition{{Type: apiregv1.Available, Status: apiregv1.ConditionTrue, Reason: "Local"}}
		}), "Local", "True"},
		{"down", remote(func(s *apiregv1.APIService) {
			s.Status.Conditions = []apiregv1.APIServiceCondition{{Type: apiregv1.Available, Status: apiregv1.ConditionFalse, Reason: "MissingEndpoints"}}
		}), "platform-system/metrics-server", "False (MissingEndpoints)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := serviceColumn(tc.s); got != tc.service {
				t.Errorf("service column %q, want %q", got, tc.service)
			}
			if got := availableColumn(tc.s); got != tc.avail {
				t.Errorf("available column %q, want %q", got, tc.avail)
			}
		})
	}
}
