package patch

import (
	"encoding/json"
	"time"
)

// The types below imitate the shape and patch tags of a Pod closely enough
// to exercise every strategic merge rule without importing real API types.

type tTypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type tPod struct {
	tTypeMeta `json:",inline"`
	Metadata  tMeta      `json:"metadata,omitempty"`
	Spec      tSpec      `json:"spec,omitempty"`
	Status    *tStatus   `json:"status,omitempty"`
	Extra     *tExtraRaw `json:"extra,omitempty"`
}

type tMeta struct {
	Name              string            `json:"name,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	Finalizers        []string          `json:"finalizers,omitempty" patchStrategy:"merge"`
	OwnerReferences   []tOwnerRef       `json:"ownerReferences,omitempty" patchStrategy:"merge" patchMergeKey:"uid"`
	CreationTimestamp time.Time         `json:"creationTimestamp,omitempty"`
}

type tOwnerRef struct {
	UID  string `json:"uid"`
	Kind string `json:"kind,omitempty"`
}

type tSpec struct {
	Containers   []tContainer      `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	Tolerations  []tToleration     `json:"tolerations,omitempty"`
	Volumes      []tVolume         `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	Strategy     *tStrategy        `json:"strategy,omitempty" patchStrategy:"retainKeys"`
	Affinity     *tAffinity        `json:"affinity,omitempty" patchStrategy:"replace"`
	Matrix       [][]string        `json:"matrix,omitempty"`
	*tSpecExtras
}

// tSpecExtras is embedded untagged through a pointer: its fields are promoted.
type tSpecExtras struct {
	Hostname string   `json:"hostname,omitempty"`
	Gates    []string `json:"gates,omitempty" patchStrategy:"merge"`
}

type tContainer struct {
	Name      string               `json:"name"`
	Image     string               `json:"image,omitempty"`
	Args      []string             `json:"args,omitempty"`
	Env       []tEnv               `json:"env,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Ports     []tPort              `json:"ports,omitempty" patchStrategy:"merge" patchMergeKey:"containerPort"`
	Resources map[string]tQuantity `json:"resources,omitempty"`
}

type tEnv struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

type tPort struct {
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
}

type tToleration struct {
	Key    string `json:"key,omitempty"`
	Effect string `json:"effect,omitempty"`
}

type tVolume struct {
	Name     string     `json:"name"`
	EmptyDir *struct{}  `json:"emptyDir,omitempty"`
	HostPath *tHostPath `json:"hostPath,omitempty"`
}

type tHostPath struct {
	Path string `json:"path"`
}

type tStrategy struct {
	Type          string          `json:"type,omitempty"`
	RollingUpdate *tRollingUpdate `json:"rollingUpdate,omitempty"`
}

type tRollingUpdate struct {
	MaxSurge string `json:"maxSurge,omitempty"`
}

type tAffinity struct {
	Zone  string            `json:"zone,omitempty"`
	Rules map[string]string `json:"rules,omitempty"`
}

type tStatus struct {
	Phase      string       `json:"phase,omitempty"`
	Conditions []tCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

type tCondition struct {
	Type   string `json:"type"`
	Status string `json:"status,omitempty"`
}

// tExtraRaw holds arbitrary JSON, like RawExtension: merged without schema.
type tExtraRaw struct {
	json.RawMessage
}

// tQuantity marshals itself, so strategic merge treats it as a scalar.
type tQuantity struct{ s string }

func (q tQuantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }

func (q *tQuantity) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &q.s) }

// tNode is recursive, to check that schema building terminates.
type tNode struct {
	Name     string   `json:"name"`
	Children []*tNode `json:"children,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	Parent   *tNode   `json:"parent,omitempty"`
	Skipped  string   `json:"-"`
	hidden   string
	Renamed  string `json:"-,"`
	Plain    string
}
