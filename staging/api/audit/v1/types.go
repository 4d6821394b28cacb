package v1

import (
	"encoding/json"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"
)

// Level is how much of a request an event records.
type Level string

// The levels, from nothing to everything.
const (
	// LevelNone records nothing.
	LevelNone Level = "None"
	// LevelMetadata records who did what to which object, without bodies.
	LevelMetadata Level = "Metadata"
	// LevelRequest adds the request body.
	LevelRequest Level = "Request"
	// LevelRequestResponse adds the response body too.
	LevelRequestResponse Level = "RequestResponse"
)

// ordLevel ranks the levels; an unknown level ranks below None.
func ordLevel(l Level) int {
	switch l {
	case LevelNone:
		return 0
	case LevelMetadata:
		return 1
	case LevelRequest:
		return 2
	case LevelRequestResponse:
		return 3
	}
	return -1
}

// Less reports whether l records less than other.
func (l Level) Less(other Level) bool { return ordLevel(l) < ordLevel(other) }

// GreaterOrEqual reports whether l records at least as much as other.
func (l Level) GreaterOrEqual(other Level) bool { return ordLevel(l) >= ordLevel(other) }

// Valid reports whether l is one of the four levels.
func (l Level) Valid() bool { return ordLevel(l) >= 0 }

// Stage is the point in a request's life an event is made at.
type Stage string

// The stages.
const (
	// StageRequestReceived is as soon as the request is read, before it is
	// handled.
	StageRequestReceived Stage = "RequestReceived"
	// StageResponseStarted is when a long-running request (a watch) has
	// sent its response headers, before its body.
	StageResponseStarted Stage = "ResponseStarted"
	// StageResponseComplete is when the response has been sent.
	StageResponseComplete Stage = "ResponseComplete"
	// StagePanic is when the handler panicked.
	StagePanic Stage = "Panic"
)

// Valid reports whether s is one of the four stages.
func (s Stage) Valid() bool {
	switch s {
	case StageRequestReceived, StageResponseStarted, StageResponseComplete, StagePanic:
		return true
	}
	return false
}

// Event is one stage of one request as the audit log records it.
type Event struct {
	meta.TypeMeta `json:",inline"`
	// Level is the level the policy chose for the request.
	Level Level `json:"level"`
	// AuditID is unique per request (the Audit-ID header); every stage of
	// a request has the same one.
	AuditID string `json:"auditID"`
	Stage   Stage  `json:"stage"`
	// RequestURI is the path and query the client sent.
	RequestURI string `json:"requestURI"`
	// Verb is the resource verb (get, list, watch, create, ...) or, for a
	// non-resource request, the lower-cased HTTP method.
	Verb string `json:"verb"`
	// User is the authenticated user.
	User authnv1.UserInfo `json:"user"`
	// ImpersonatedUser is the user the request acted as, if it
	// impersonated one.
	ImpersonatedUser *authnv1.UserInfo `json:"impersonatedUser,omitempty"`
	// SourceIPs are the client's address and those of the proxies
	// (X-Forwarded-For, X-Real-Ip) it came through, most distant first.
	SourceIPs []string `json:"sourceIPs,omitempty"`
	UserAgent string   `json:"userAgent,omitempty"`
	// ObjectRef is the object a resource request is about.
	ObjectRef *ObjectReference `json:"objectRef,omitempty"`
	// ResponseStatus is set from ResponseStarted on: the code, and for a
	// failure the Status the client got.
	ResponseStatus *meta.Status `json:"responseStatus,omitempty"`
	// RequestObject is the request body as JSON, from level Request up.
	RequestObject json.RawMessage `json:"requestObject,omitempty"`
	// ResponseObject is the response body as JSON, at level
	// RequestResponse.
	ResponseObject           json.RawMessage `json:"responseObject,omitempty"`
	RequestReceivedTimestamp meta.MicroTime  `json:"requestReceivedTimestamp"`
	StageTimestamp           meta.MicroTime  `json:"stageTimestamp"`
	// Annotations are set by the server's parts (for example the
	// authorization decision, or truncation).
	Annotations map[string]string `json:"annotations,omitempty"`
}

// ObjectReference names the object of a request.
type ObjectReference struct {
	Resource        string `json:"resource,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIGroup        string `json:"apiGroup,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	Subresource     string `json:"subresource,omitempty"`
}

// EventList is a batch of events, as a webhook receives it.
type EventList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty"`
	Items         []Event `json:"items"`
}

// Policy decides the level of each request: the first rule that matches
// gives it; a request no rule matches is not recorded.
type Policy struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty"`
	Rules           []PolicyRule `json:"rules"`
	// OmitStages are stages no event is made at, whatever the rule.
	OmitStages []Stage `json:"omitStages,omitempty"`
	// OmitManagedFields drops metadata.managedFields from recorded bodies,
	// unless a rule says otherwise.
	OmitManagedFields bool `json:"omitManagedFields,omitempty"`
}

// PolicyRule matches requests; every field given must match (an empty
// list matches everything).
type PolicyRule struct {
	Level Level `json:"level"`
	// Users and UserGroups match the authenticated user by name or by any
	// of its groups.
	Users      []string `json:"users,omitempty"`
	UserGroups []string `json:"userGroups,omitempty"`
	Verbs      []string `json:"verbs,omitempty"`
	// Resources match resource requests only, by group, resource and name.
	Resources []GroupResources `json:"resources,omitempty"`
	// Namespaces match resource requests only, by namespace; "" matches
	// requests that are not namespaced.
	Namespaces []string `json:"namespaces,omitempty"`
	// NonResourceURLs match the path of non-resource requests: exactly, or
	// by prefix when the pattern ends in "*".
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
	// OmitStages are added to the policy's.
	OmitStages []Stage `json:"omitStages,omitempty"`
	// OmitManagedFields overrides the policy's setting for this rule.
	OmitManagedFields *bool `json:"omitManagedFields,omitempty"`
}

// GroupResources names resources of one API group.
type GroupResources struct {
	// Group is the API group; "" is the core group.
	Group string `json:"group,omitempty"`
	// Resources are resource names: "pods", "pods/log" for a subresource,
	// "*/scale" for one subresource of any resource, "pods/*" for a
	// resource and all its subresources, "*" for everything; empty means
	// all resources of the group.
	Resources []string `json:"resources,omitempty"`
	// ResourceNames are object names; empty means any.
	ResourceNames []string `json:"resourceNames,omitempty"`
}
