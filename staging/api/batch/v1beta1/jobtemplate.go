package v1beta1

import (
	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
)

// JobTemplateSpec is the metadata and batch/v1 spec of the Jobs a CronJob creates.
type JobTemplateSpec struct {
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec batchv1.JobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// JobTemplate is a stored, named JobTemplateSpec.
type JobTemplate struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Template is the job to stamp out.
	Template JobTemplateSpec `json:"template,omitempty" protobuf:"bytes,2,opt,name=template"`
}
