package podcontrol

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/record"
	"platform.io/client/rest"
)

// Event reasons of pod writes, as upstream records them on the owner.
const (
	ReasonSuccessfulCreate = "SuccessfulCreate"
	ReasonFailedCreate     = "FailedCreate"
	ReasonSuccessfulDelete = "SuccessfulDelete"
	ReasonFailedDelete     = "FailedDelete"
)

// ErrNoLabels is returned when a template without labels is asked to
// stamp out pods: the owner could never select them.
var ErrNoLabels = errors.New("podcontrol: the pod template has no labels")

// PodWriter is the part of the pods client the loops write through.
type PodWriter interface {
	Create(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error)
	Delete(ctx context.Context, namespace, name string, opts *meta.DeleteOptions) error
	Patch(ctx context.Context, namespace, name string, pt rest.PatchType, data []byte) (*corev1.Pod, error)
}

// ClientWriter adapts the typed pods client to PodWriter.
func ClientWriter(c *client.Client[corev1.Pod, *corev1.Pod]) PodWriter { return clientWriter{c} }

type clientWriter struct {
	c *client.Client[corev1.Pod, *corev1.Pod]
}

func (w clientWriter) Create(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	return w.c.Namespace(pod.Namespace).Create(ctx, pod, meta.WriteOptions{})
}

func (w clientWriter) Delete(ctx context.Context, namespace, name string, opts *meta.DeleteOptions) error {
	return w.c.Namespace(namespace).Delete(ctx, name, opts)
}

func (w clientWriter) Patch(ctx context.Context, namespace, name string, pt rest.PatchType, data []byte) (*corev1.Pod, error) {
	return w.c.Namespace(namespace).Patch(ctx, name, pt, data, meta.WriteOptions{})
}

// Control writes pods for owners and records the upstream events on the
// owner: SuccessfulCreate / FailedCreate and SuccessfulDelete /
// FailedDelete.
type Control struct {
	lg  *zap.Logger
	w   PodWriter
	rec record.Recorder
}

// New returns a Control writing through w and recording with rec.
func New(lg *zap.Logger, w PodWriter, rec record.Recorder) *Control {
	return &Control{lg: lg, w: w, rec: rec}
}

// Writer returns the PodWriter the Control writes through.
func (c *Control) Writer() PodWriter { return c.w }

// PodFromTemplate builds the pod owner creates from tmpl: the template's
// labels, annotations, finalizers and spec, the generated name
// "<owner>-", the owner's namespace and the controller ownerReference.
// The template is not modified.
func PodFromTemplate(tmpl *corev1.PodTemplateSpec, owner Owner) (*corev1.Pod, error) {
	if len(tmpl.Labels) == 0 {
		return nil, ErrNoLabels
	}
	spec := Clone(tmpl)
	pod := &corev1.Pod{Spec: spec.Spec}
	pod.Namespace = owner.Meta.Namespace
	pod.GenerateName = owner.Meta.Name + "-"
	pod.Labels = maps.Clone(tmpl.Labels)
	pod.Annotations = maps.Clone(tmpl.Annotations)
	pod.Finalizers = slices.Clone(tmpl.Finalizers)
	pod.OwnerReferences = []meta.OwnerReference{owner.Ref()}
	return pod, nil
}

// CreatePod creates one pod for owner from tmpl; mutate, when set, adjusts
// the pod (a name, extra labels) before it is sent. It records
// SuccessfulCreate or FailedCreate on the owner.
func (c *Control) CreatePod(ctx context.Context, tmpl *corev1.PodTemplateSpec, owner Owner, mutate func(*corev1.Pod)) (*corev1.Pod, error) {
	pod, err := PodFromTemplate(tmpl, owner)
	if err != nil {
		return nil, err
	}
	if mutate != nil {
		mutate(pod)
	}
	created, err := c.w.Create(ctx, pod)
	if err != nil {
		c.rec.Eventf(owner.Reference(), corev1.EventTypeWarning, ReasonFailedCreate, "Error creating: %v", err)
		return nil, fmt.Errorf("create pod for %s/%s: %w", owner.Meta.Namespace, owner.Meta.Name, err)
	}
	c.lg.Debug("created pod", zap.String("owner", owner.Meta.Name), zap.String("pod", created.Name))
	c.rec.Eventf(owner.Reference(), corev1.EventTypeNormal, ReasonSuccessfulCreate, "Created pod: %v", created.Name)
	return created, nil
}

// DeletePod deletes the pod name of owner's namespace with the pod's own
// grace period, recording SuccessfulDelete or FailedDelete on the owner.
// A pod already gone is an error the caller can test with IsNotFound; no
// event is recorded for it.
func (c *Control) DeletePod(ctx context.Context, owner Owner, name string) error {
	err := c.w.Delete(ctx, owner.Meta.Namespace, name, nil)
	if err != nil {
		if !isNotFound(err) {
			c.rec.Eventf(owner.Reference(), corev1.EventTypeWarning, ReasonFailedDelete, "Error deleting: %v", err)
		}
		return fmt.Errorf("delete pod %s/%s: %w", owner.Meta.Namespace, name, err)
	}
	c.lg.Debug("deleted pod", zap.String("owner", owner.Meta.Name), zap.String("pod", name))
	c.rec.Eventf(owner.Reference(), corev1.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: %v", name)
	return nil
}
