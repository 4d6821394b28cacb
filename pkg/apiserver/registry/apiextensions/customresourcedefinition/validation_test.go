package customresourcedefinition

import (
	"strings"
	"testing"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func validCRD() *apiextv1.CustomResourceDefinition {
	crd := &apiextv1.CustomResourceDefinition{
		ObjectMeta: meta.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextv1.NamespaceScoped,
			Names: apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget", ShortNames: []string{"wd"}},
			Versions: []apiextv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object"}},
			}},
		},
	}
	SetDefaults(crd)
	return crd
}

func fieldsOf(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field)
	}
	return strings.Join(out, ",")
}

func TestValidate(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		name   string
		change func(*apiextv1.CustomResourceDefinition)
		want   string
	}{
		{"valid", func(*apiextv1.CustomResourceDefinition) {}, ""},
		{"name not plural.group", func(c *apiextv1.CustomResourceDefinition) { c.Name = "widget.example.com" }, "metadata.name"},
		{"group without a dot", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Group, c.Name = "example", "widgets.example" }, "spec.group"},
		{"bad scope", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Scope = "Global" }, "spec.scope"},
		{"plural not a DNS-1035 label", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Names.Plural, c.Name = "Widgets", "Widgets.example.com"
		}, "spec.names.plural"},
		{"short name with a dot", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Names.ShortNames = []string{"w.d"} }, "spec.names.shortNames[0]"},
		{"listKind equals kind", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Names.ListKind = "Widget" }, "spec.names.listKind"},
		{"no storage version", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Versions[0].Storage = false }, "spec.versions"},
		{"two storage versions", func(c *apiextv1.CustomResourceDefinition) {
			v := c.Spec.Versions[0]
			v.Name = "v2"
			c.Spec.Versions = append(c.Spec.Versions, v)
		}, "spec.versions"},
		{"duplicate version names", func(c *apiextv1.CustomResourceDefinition) {
			v := c.Spec.Versions[0]
			v.Storage = false
			c.Spec.Versions = append(c.Spec.Versions, v)
		}, "spec.versions"},
		{"no schema", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Versions[0].Schema = nil }, "spec.versions[0].schema.openAPIV3Schema"},
		{"root not an object", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema.OpenAPIV3Schema.Type = "string"
		}, "spec.versions[0].schema.openAPIV3Schema.type"},
		{"warning without deprecation", func(c *apiextv1.CustomResourceDefinition) { c.Spec.Versions[0].DeprecationWarning = str("old") }, "spec.versions[0].deprecationWarning"},
		{"printer column type", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Versions[0].AdditionalPrinterColumns = []apiextv1.CustomResourceColumnDefinition{{Name: "A", Type: "map", JSONPath: ".spec.a"}}
		}, "spec.versions[0].additionalPrinterColumns[0].type"},
		{"scale path outside spec", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Subresources = &apiextv1.CustomResourceSubresources{Scale: &apiextv1.CustomResourceSubresourceScale{SpecReplicasPath: ".replicas", StatusReplicasPath: ".status.replicas"}}
		}, "spec.versions[0].subresources.scale.specReplicasPath"},
		{"webhook without client config", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter}
		}, "spec.conversion.webhook.clientConfig"},
		{"webhook over http", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter, Webhook: &apiextv1.WebhookConversion{
				ClientConfig: &apiextv1.WebhookClientConfig{URL: str("http://example.com/convert")}, ConversionReviewVersions: []string{"v1"}}}
		}, "spec.conversion.webhook.clientConfig.url"},
		{"webhook service", func(c *apiextv1.CustomResourceDefinition) {
			port := int32(8443)
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{
				Service: &apiextv1.ServiceReference{Namespace: "ns", Name: "hook", Path: str("/convert/v1"), Port: &port}}, "v2", "v1")
		}, ""},
		{"webhook url without host", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https:///convert")}, "v1")
		}, "spec.conversion.webhook.clientConfig.url"},
		{"webhook url and service", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https://example.com/convert"),
				Service: &apiextv1.ServiceReference{Namespace: "ns", Name: "hook"}}, "v1")
		}, "spec.conversion.webhook.clientConfig"},
		{"webhook service path", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{
				Service: &apiextv1.ServiceReference{Namespace: "ns", Name: "hook", Path: str("/a//b")}}, "v1")
		}, "spec.conversion.webhook.clientConfig.service.path"},
		{"webhook service port", func(c *apiextv1.CustomResourceDefinition) {
			port := int32(70000)
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{
				Service: &apiextv1.ServiceReference{Namespace: "ns", Name: "hook", Port: &port}}, "v1")
		}, "spec.conversion.webhook.clientConfig.service.port"},
		{"no review versions", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https://example.com/convert")})
		}, "spec.conversion.webhook.conversionReviewVersions"},
		{"no known review version", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https://example.com/convert")}, "v2")
		}, "spec.conversion.webhook.conversionReviewVersions"},
		{"duplicate review version", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https://example.com/convert")}, "v1", "v1")
		}, "spec.conversion.webhook.conversionReviewVersions[1]"},
		{"webhook under None", func(c *apiextv1.CustomResourceDefinition) {
			c.Spec.Conversion = webhookConversion(&apiextv1.WebhookClientConfig{URL: str("https://example.com/convert")}, "v1")
			c.Spec.Conversion.Strategy = apiextv1.NoneConverter
		}, "spec.conversion.webhook"},
		{"preserveUnknownFields", func(c *apiextv1.CustomResourceDefinition) { c.Spec.PreserveUnknownFields = true }, "spec.preserveUnknownFields"},
		{"stored version not in spec", func(c *apiextv1.CustomResourceDefinition) { c.Status.StoredVersions = []string{"v0"} }, "status.storedVersions[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			crd := validCRD()
			tc.change(crd)
			if got := fieldsOf(Validate(crd)); got != tc.want {
				t.Errorf("errors on %q, want %q: %v", got, tc.want, Validate(crd))
			}
		})
	}
}

func TestValidateUpdateScopeImmutable(t *testing.T) {
	old, crd := validCRD(), validCRD()
	crd.Spec.Scope = apiextv1.ClusterScoped
	if got := fieldsOf(ValidateUpdate(crd, old)); got != "spec.scope" {
		t.Errorf("errors on %q, want spec.scope", got)
	}
}

func TestStoredVersionsKept(t *testing.T) {
	crd := validCRD()
	prepareForCreate(crd)
	if got := strings.Join(crd.Status.StoredVersions, ","); got != "v1" {
		t.Fatalf("storedVersions after create = %q, want v1", got)
	}
	old := crd
	crd = validCRD()
	crd.Status = old.Status
	crd.Spec.Versions[0].Storage = false
	crd.Spec.Versions = append(crd.Spec.Versions, apiextv1.CustomResourceDefinitionVersion{Name: "v2", Served: true, Storage: true,
		Schema: crd.Spec.Versions[0].Schema})
	prepareForUpdate(crd, old)
	if got := strings.Join(crd.Status.StoredVersions, ","); got != "v1,v2" {
		t.Errorf("storedVersions after a new storage version = %q, want v1,v2", got)
	}
}

func webhookConversion(cc *apiextv1.WebhookClientConfig, reviewVersions ...string) *apiextv1.CustomResourceConversion {
	return &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter,
		Webhook: &apiextv1.WebhookConversion{ClientConfig: cc, ConversionReviewVersions: reviewVersions}}
}
