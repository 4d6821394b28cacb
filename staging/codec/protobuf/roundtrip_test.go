package protobuf_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	admissionv1 "platform.io/client/api/admission/v1"
	admissionv1beta1 "platform.io/client/api/admission/v1beta1"
	arv1 "platform.io/client/api/admissionregistration/v1"
	arv1beta1 "platform.io/client/api/admissionregistration/v1beta1"
	apiextv1 "platform.io/client/api/apiextensions/v1"
	apiregv1 "platform.io/client/api/apiregistration/v1"
	appsv1 "platform.io/client/api/apps/v1"
	auditv1 "platform.io/client/api/audit/v1"
	authenticationv1 "platform.io/client/api/authentication/v1"
	authenticationv1beta1 "platform.io/client/api/authentication/v1beta1"
	authorizationv1 "platform.io/client/api/authorization/v1"
	authorizationv1beta1 "platform.io/client/api/authorization/v1beta1"
	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
	rbacv1 "platform.io/client/api/rbac/v1"
	"platform.io/client/api/resource"
	schedulingv1 "platform.io/client/api/scheduling/v1"
	"platform.io/client/codec/protobuf"
)

// kinds holds every kind of every API package: each struct type that embeds
// TypeMeta, and meta's WatchEvent. TestKindsComplete keeps it complete.
var kinds = map[string]func() protobuf.Message{
	"admission/v1/AdmissionReview":                                     func() protobuf.Message { return new(admissionv1.AdmissionReview) },
	"admission/v1beta1/AdmissionReview":                                func() protobuf.Message { return new(admissionv1beta1.AdmissionReview) },
	"apiextensions/v1/CustomResourceDefinition":                        func() protobuf.Message { return new(apiextv1.CustomResourceDefinition) },
	"apiextensions/v1/CustomResourceDefinitionList":                    func() protobuf.Message { return new(apiextv1.CustomResourceDefinitionList) },
	"apiregistration/v1/APIService":                                    func() protobuf.Message { return new(apiregv1.APIService) },
	"apiregistration/v1/APIServiceList":                                func() protobuf.Message { return new(apiregv1.APIServiceList) },
	"admissionregistration/v1/MutatingWebhookConfiguration":            func() protobuf.Message { return new(arv1.MutatingWebhookConfiguration) },
	"admissionregistration/v1/MutatingWebhookConfigurationList":        func() protobuf.Message { return new(arv1.MutatingWebhookConfigurationList) },
	"admissionregistration/v1/ValidatingWebhookConfiguration":          func() protobuf.Message { return new(arv1.ValidatingWebhookConfiguration) },
	"admissionregistration/v1/ValidatingWebhookConfigurationList":      func() protobuf.Message { return new(arv1.ValidatingWebhookConfigurationList) },
	"admissionregistration/v1beta1/MutatingWebhookConfiguration":       func() protobuf.Message { return new(arv1beta1.MutatingWebhookConfiguration) },
	"admissionregistration/v1beta1/MutatingWebhookConfigurationList":   func() protobuf.Message { return new(arv1beta1.MutatingWebhookConfigurationList) },
	"admissionregistration/v1beta1/ValidatingWebhookConfiguration":     func() protobuf.Message { return new(arv1beta1.ValidatingWebhookConfiguration) },
	"admissionregistration/v1beta1/ValidatingWebhookConfigurationList": func() protobuf.Message { return new(arv1beta1.ValidatingWebhookConfigurationList) },
	"metrics/v1beta1/NodeMetrics":                                      func() protobuf.Message { return new(metricsv1beta1.NodeMetrics) },
	"metrics/v1beta1/NodeMetricsList":                                  func() protobuf.Message { return new(metricsv1beta1.NodeMetricsList) },
	"metrics/v1beta1/PodMetrics":                                       func() protobuf.Message { return new(metricsv1beta1.PodMetrics) },
	"metrics/v1beta1/PodMetricsList":                                   func() protobuf.Message { return new(metricsv1beta1.PodMetricsList) },
	"scheduling/v1/PriorityClass":                                      func() protobuf.Message { return new(schedulingv1.PriorityClass) },
	"scheduling/v1/PriorityClassList":                                  func() protobuf.Message { return new(schedulingv1.PriorityClassList) },
	"apps/v1/ControllerRevision":                                       func() protobuf.Message { return new(appsv1.ControllerRevision) },
	"apps/v1/ControllerRevisionList":                                   func() protobuf.Message { return new(appsv1.ControllerRevisionList) },
	"apps/v1/DaemonSet":                                                func() protobuf.Message { return new(appsv1.DaemonSet) },
	"apps/v1/DaemonSetList":                                            func() protobuf.Message { return new(appsv1.DaemonSetList) },
	"apps/v1/Deployment":                                               func() protobuf.Message { return new(appsv1.Deployment) },
	"apps/v1/DeploymentRollback":                                       func() protobuf.Message { return new(appsv1.DeploymentRollback) },
	"apps/v1/DeploymentList":                                           func() protobuf.Message { return new(appsv1.DeploymentList) },
	"apps/v1/PersistentVolumeClaim":                                    func() protobuf.Message { return new(appsv1.PersistentVolumeClaim) },
	"apps/v1/ReplicaSet":                                               func() protobuf.Message { return new(appsv1.ReplicaSet) },
	"apps/v1/ReplicaSetList":                                           func() protobuf.Message { return new(appsv1.ReplicaSetList) },
	"apps/v1/StatefulSet":                                              func() protobuf.Message { return new(appsv1.StatefulSet) },
	"apps/v1/StatefulSetList":                                          func() protobuf.Message { return new(appsv1.StatefulSetList) },
	"autoscaling/v1/HorizontalPodAutoscaler":                           func() protobuf.Message { return new(autoscalingv1.HorizontalPodAutoscaler) },
	"autoscaling/v1/HorizontalPodAutoscalerList":                       func() protobuf.Message { return new(autoscalingv1.HorizontalPodAutoscalerList) },
	"autoscaling/v2/HorizontalPodAutoscaler":                           func() protobuf.Message { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"autoscaling/v2/HorizontalPodAutoscalerList":                       func() protobuf.Message { return new(autoscalingv2.HorizontalPodAutoscalerList) },
	"autoscaling/v1/Scale":                                             func() protobuf.Message { return new(autoscalingv1.Scale) },
	"batch/v1/CronJob":                                                 func() protobuf.Message { return new(batchv1.CronJob) },
	"batch/v1/CronJobList":                                             func() protobuf.Message { return new(batchv1.CronJobList) },
	"batch/v1/Job":                                                     func() protobuf.Message { return new(batchv1.Job) },
	"batch/v1/JobList":                                                 func() protobuf.Message { return new(batchv1.JobList) },
	"batch/v1beta1/CronJob":                                            func() protobuf.Message { return new(batchv1beta1.CronJob) },
	"batch/v1beta1/CronJobList":                                        func() protobuf.Message { return new(batchv1beta1.CronJobList) },
	"batch/v1beta1/JobTemplate":                                        func() protobuf.Message { return new(batchv1beta1.JobTemplate) },
	"authentication/v1/TokenReview":                                    func() protobuf.Message { return new(authenticationv1.TokenReview) },
	"authorization/v1/SubjectAccessReview":                             func() protobuf.Message { return new(authorizationv1.SubjectAccessReview) },
	"coordination/v1/Lease":                                            func() protobuf.Message { return new(coordinationv1.Lease) },
	"coordination/v1/LeaseList":                                        func() protobuf.Message { return new(coordinationv1.LeaseList) },
	"core/v1/Binding":                                                  func() protobuf.Message { return new(corev1.Binding) },
	"core/v1/ConfigMap":                                                func() protobuf.Message { return new(corev1.ConfigMap) },
	"core/v1/ConfigMapList":                                            func() protobuf.Message { return new(corev1.ConfigMapList) },
	"core/v1/Endpoints":                                                func() protobuf.Message { return new(corev1.Endpoints) },
	"core/v1/EndpointsList":                                            func() protobuf.Message { return new(corev1.EndpointsList) },
	"core/v1/Event":                                                    func() protobuf.Message { return new(corev1.Event) },
	"core/v1/EventList":                                                func() protobuf.Message { return new(corev1.EventList) },
	"core/v1/LimitRange":                                               func() protobuf.Message { return new(corev1.LimitRange) },
	"core/v1/LimitRangeList":                                           func() protobuf.Message { return new(corev1.LimitRangeList) },
	"core/v1/Namespace":                                                func() protobuf.Message { return new(corev1.Namespace) },
	"core/v1/NamespaceList":                                            func() protobuf.Message { return new(corev1.NamespaceList) },
	"core/v1/Node":                                                     func() protobuf.Message { return new(corev1.Node) },
	"core/v1/NodeList":                                                 func() protobuf.Message { return new(corev1.NodeList) },
	"core/v1/Pod":                                                      func() protobuf.Message { return new(corev1.Pod) },
	"core/v1/PodList":                                                  func() protobuf.Message { return new(corev1.PodList) },
	"core/v1/PodTemplate":                                              func() protobuf.Message { return new(corev1.PodTemplate) },
	"core/v1/PodTemplateList":                                          func() protobuf.Message { return new(corev1.PodTemplateList) },
	"core/v1/ResourceQuota":                                            func() protobuf.Message { return new(corev1.ResourceQuota) },
	"core/v1/ResourceQuotaList":                                        func() protobuf.Message { return new(corev1.ResourceQuotaList) },
	"core/v1/Secret":                                                   func() protobuf.Message { return new(corev1.Secret) },
	"core/v1/SecretList":                                               func() protobuf.Message { return new(corev1.SecretList) },
	"core/v1/Service":                                                  func() protobuf.Message { return new(corev1.Service) },
	"core/v1/ServiceAccount":                                           func() protobuf.Message { return new(corev1.ServiceAccount) },
	"core/v1/ServiceAccountList":                                       func() protobuf.Message { return new(corev1.ServiceAccountList) },
	"core/v1/ServiceList":                                              func() protobuf.Message { return new(corev1.ServiceList) },
	"meta/APIGroup":                                                    func() protobuf.Message { return new(meta.APIGroup) },
	"meta/APIGroupList":                                                func() protobuf.Message { return new(meta.APIGroupList) },
	"meta/APIResourceList":                                             func() protobuf.Message { return new(meta.APIResourceList) },
	"meta/APIVersions":                                                 func() protobuf.Message { return new(meta.APIVersions) },
	"meta/DeleteOptions":                                               func() protobuf.Message { return new(meta.DeleteOptions) },
	"meta/CreateOptions":                                               func() protobuf.Message { return new(meta.CreateOptions) },
	"meta/UpdateOptions":                                               func() protobuf.Message { return new(meta.UpdateOptions) },
	"meta/PatchOptions":                                                func() protobuf.Message { return new(meta.PatchOptions) },
	"meta/PartialObjectMetadata":                                       func() protobuf.Message { return new(meta.PartialObjectMetadata) },
	"meta/Status":                                                      func() protobuf.Message { return new(meta.Status) },
	"meta/WatchEvent":                                                  func() protobuf.Message { return new(meta.WatchEvent) },
	"authentication/v1/SelfSubjectReview":                              func() protobuf.Message { return new(authenticationv1.SelfSubjectReview) },
	"authentication/v1/TokenRequest":                                   func() protobuf.Message { return new(authenticationv1.TokenRequest) },
	"authentication/v1beta1/TokenReview":                               func() protobuf.Message { return new(authenticationv1beta1.TokenReview) },
	"authentication/v1beta1/SelfSubjectReview":                         func() protobuf.Message { return new(authenticationv1beta1.SelfSubjectReview) },
	"authorization/v1/LocalSubjectAccessReview":                        func() protobuf.Message { return new(authorizationv1.LocalSubjectAccessReview) },
	"authorization/v1/SelfSubjectAccessReview":                         func() protobuf.Message { return new(authorizationv1.SelfSubjectAccessReview) },
	"authorization/v1/SelfSubjectRulesReview":                          func() protobuf.Message { return new(authorizationv1.SelfSubjectRulesReview) },
	"authorization/v1beta1/SubjectAccessReview":                        func() protobuf.Message { return new(authorizationv1beta1.SubjectAccessReview) },
	"rbac/v1/Role":                                                     func() protobuf.Message { return new(rbacv1.Role) },
	"rbac/v1/RoleList":                                                 func() protobuf.Message { return new(rbacv1.RoleList) },
	"rbac/v1/RoleBinding":                                              func() protobuf.Message { return new(rbacv1.RoleBinding) },
	"rbac/v1/RoleBindingList":                                          func() protobuf.Message { return new(rbacv1.RoleBindingList) },
	"rbac/v1/ClusterRole":                                              func() protobuf.Message { return new(rbacv1.ClusterRole) },
	"rbac/v1/ClusterRoleList":                                          func() protobuf.Message { return new(rbacv1.ClusterRoleList) },
	"rbac/v1/ClusterRoleBinding":                                       func() protobuf.Message { return new(rbacv1.ClusterRoleBinding) },
	"rbac/v1/ClusterRoleBindingList":                                   func() protobuf.Message { return new(rbacv1.ClusterRoleBindingList) },
}

// jsonOnly are the kinds served or written as JSON only, as upstream
// does: a Table's cells hold values of any JSON type, which have no
// protobuf form; audit events and policies go to log files and webhooks
// as JSON.
var jsonOnly = map[string]any{
	"meta/Table":         new(meta.Table),
	"audit/v1/Event":     new(auditv1.Event),
	"audit/v1/EventList": new(auditv1.EventList),
	"audit/v1/Policy":    new(auditv1.Policy),
}

const (
	apiDir     = "../../api"
	samplesDir = "testdata/objects"
)

// TestKindsComplete fails when an API package gains a kind that kinds, and
// so the tests below, do not cover, or a kind has no sample document.
func TestKindsComplete(t *testing.T) {
	found := []string{"meta/WatchEvent"}
	// encoded are the kinds with MarshalProto methods of their own (a kind
	// that embeds only TypeMeta gets TypeMeta's, which encodes nothing else).
	encoded := map[string]bool{}
	err := filepath.WalkDir(apiDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(apiDir, filepath.Dir(path))
		for _, name := range typeMetaStructs(f) {
			found = append(found, filepath.ToSlash(rel)+"/"+name)
		}
		for _, name := range protoEncoded(f) {
			encoded[filepath.ToSlash(rel)+"/"+name] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range found {
		if _, ok := jsonOnly[k]; ok {
			if encoded[k] {
				t.Errorf("kind %s is JSON-only but has protobuf methods", k)
			}
			continue
		}
		if kinds[k] == nil {
			t.Errorf("kind %s is missing from the kinds table", k)
		}
	}
	for k := range kinds {
		if !slices.Contains(found, k) {
			t.Errorf("kinds names %s, which no API package declares", k)
		}
		if matches, _ := filepath.Glob(filepath.Join(samplesDir, k+"*.json")); len(matches) == 0 {
			t.Errorf("kind %s has no sample in %s", k, samplesDir)
		}
	}
}

// protoEncoded returns the types of f with a MarshalProto method.
func protoEncoded(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Name.Name != "MarshalProto" || len(fd.Recv.List) != 1 {
			continue
		}
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		names = append(names, exprString(t))
	}
	return names
}

// typeMetaStructs returns the struct types of f that embed TypeMeta.
func typeMetaStructs(f *ast.File) []string {
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			for _, field := range st.Fields.List {
				if len(field.Names) == 0 && strings.HasSuffix(exprString(field.Type), "TypeMeta") {
					names = append(names, ts.Name.Name)
				}
			}
		}
		return false
	})
	return names
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return ""
}

// samples returns every sample document, by kind.
func samples(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(samplesDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(samplesDir, path)
		kind, _, _ := strings.Cut(strings.TrimSuffix(filepath.ToSlash(rel), ".json"), "-")
		out[kind] = append(out[kind], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSamplesRoundTrip takes every sample document JSON -> Go -> protobuf
// (in the envelope) -> Go -> JSON and requires the JSON unchanged.
func TestSamplesRoundTrip(t *testing.T) {
	for kind, paths := range samples(t) {
		newObj := kinds[kind]
		if newObj == nil {
			t.Errorf("sample kind %s is not in the kinds table", kind)
			continue
		}
		for _, path := range paths {
			t.Run(filepath.Base(path), func(t *testing.T) {
				doc, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				obj := newObj()
				if err := json.Unmarshal(doc, obj); err != nil {
					t.Fatalf("decoding the sample: %v", err)
				}
				roundTrip(t, obj, newObj())
			})
		}
	}
}

// roundTrip encodes obj in the envelope, decodes it into empty, and checks
// that the JSON and protobuf encodings of both agree.
func roundTrip(t *testing.T, obj, empty protobuf.Message) {
	t.Helper()
	// TypeMeta is not part of a protobuf message: the envelope carries the
	// top-level object's, and nested objects lose theirs, as upstream's do.
	clearTypeMeta(reflect.ValueOf(obj).Elem(), true)
	apiVersion, kind := typeMeta(obj)
	want, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	data := protobuf.Encode(apiVersion, kind, obj)
	gotVersion, gotKind, err := protobuf.DecodeInto(data, empty)
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	if gotVersion != apiVersion || gotKind != kind {
		t.Errorf("envelope says %q %q, want %q %q", gotVersion, gotKind, apiVersion, kind)
	}
	setTypeMeta(empty, gotVersion, gotKind)
	got, err := json.Marshal(empty)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) && !bytes.Equal(emptyListsAsNull(t, got), emptyListsAsNull(t, want)) {
		t.Errorf("JSON changed by the protobuf round trip:\n%s", cmp.Diff(string(want), string(got)))
	}
	if again := protobuf.Encode(gotVersion, gotKind, empty); !bytes.Equal(again, data) {
		t.Errorf("re-encoding changed the bytes:\n%x\n%x", data, again)
	}
}

var typeMetaType = reflect.TypeFor[meta.TypeMeta]()

// typeMeta returns obj's apiVersion and kind, or those of a WatchEvent.
func typeMeta(obj any) (apiVersion, kind string) {
	v := reflect.ValueOf(obj).Elem()
	if f := v.FieldByName("TypeMeta"); f.IsValid() && f.Type() == typeMetaType {
		tm := f.Interface().(meta.TypeMeta)
		return tm.APIVersion, tm.Kind
	}
	return "meta.platform.io/v1", "WatchEvent"
}

func setTypeMeta(obj any, apiVersion, kind string) {
	if f := reflect.ValueOf(obj).Elem().FieldByName("TypeMeta"); f.IsValid() && f.Type() == typeMetaType {
		f.Set(reflect.ValueOf(meta.TypeMeta{APIVersion: apiVersion, Kind: kind}))
	}
}

// clearTypeMeta zeroes every TypeMeta under v except, when top, v's own.
func clearTypeMeta(v reflect.Value, top bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			clearTypeMeta(v.Elem(), false)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := 0; i < v.Len(); i++ {
				clearTypeMeta(v.Index(i), false)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			switch {
			case !f.IsExported():
			case f.Type == typeMetaType:
				if !top {
					v.Field(i).SetZero()
				}
			default:
				clearTypeMeta(v.Field(i), false)
			}
		}
	}
}

// TestFilledRoundTrip fills every field of every kind, recursively, with
// values that are neither zero nor empty, and requires the object to come
// back from protobuf unchanged: no field is forgotten by the generator.
func TestFilledRoundTrip(t *testing.T) {
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		t.Run(kind, func(t *testing.T) {
			obj := kinds[kind]()
			fill(reflect.ValueOf(obj).Elem(), new(int), 0)
			clearTypeMeta(reflect.ValueOf(obj).Elem(), true)
			got := kinds[kind]()
			if err := got.UnmarshalProto(protobuf.Marshal(obj)); err != nil {
				t.Fatal(err)
			}
			apiVersion, k := typeMeta(obj)
			setTypeMeta(got, apiVersion, k)
			if diff := cmp.Diff(obj, got, equalTimes, equalQuantities); diff != "" {
				t.Errorf("changed by the round trip (-want +got):\n%s", diff)
			}
			roundTrip(t, obj, kinds[kind]())
		})
	}
}

var (
	equalTimes = cmp.Options{
		cmp.Comparer(func(a, b meta.Time) bool { return a.Equal(b.Time) }),
		cmp.Comparer(func(a, b meta.MicroTime) bool { return a.Equal(b.Time) }),
	}
	equalQuantities = cmp.Comparer(func(a, b resource.Quantity) bool {
		return a.Cmp(b) == 0 && a.String() == b.String()
	})
)

// emptyListsAsNull re-encodes the JSON doc with every empty array replaced
// by null: protobuf, like upstream's, cannot tell an empty list from none,
// so a list field without omitempty comes back as null.
func emptyListsAsNull(t *testing.T, doc []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case []any:
			if len(v) == 0 {
				return nil
			}
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = walk(v[k])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
