package priority

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	schedulingv1 "platform.io/client/api/scheduling/v1"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/registry"
)

// Name is the plugin's upstream name.
const Name = "Priority"

// DefaultPriorityWhenNoDefaultClassExists is the priority of a pod that
// names no class when no class is the global default.
const DefaultPriorityWhenNoDefaultClassExists int32 = 0

// ClassesResource is the resource of priority classes, in its storage group.
var ClassesResource = schedulingv1.Resource("priorityclasses")

var podsResource = meta.GroupResource{Group: "", Resource: "pods"}

// Plugin is the Priority admission plugin.
type Plugin struct {
	lg      *zap.Logger
	classes Classes
}

var (
	_ admission.Mutator   = (*Plugin)(nil)
	_ admission.Validator = (*Plugin)(nil)
)

// New returns the plugin reading classes from classes.
func New(lg *zap.Logger, classes Classes) *Plugin {
	return &Plugin{lg: lg, classes: classes}
}

// Handles reports that the plugin acts on creates, updates and deletes.
func (p *Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update || op == admission.Delete
}

// resource returns the group and resource written, under the group's
// canonical name (priorityclasses are also served as scheduling.k8s.io).
func resource(a *admission.Attributes) meta.GroupResource {
	gr := a.GroupResource()
	gr.Group = registry.CanonicalGroup(gr.Group)
	return gr
}

// Admit sets a new pod's priority and preemption policy from its class,
// and keeps them on an update that leaves them out.
func (p *Plugin) Admit(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource != "" || resource(a) != podsResource {
		return nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("resource was marked with kind Pod but was unable to be converted (%T)", a.Object))
	}
	switch a.Operation {
	case admission.Create:
		return p.admitNewPod(ctx, pod)
	case admission.Update:
		// Create set these; validation refuses changing them, so an
		// update that leaves them out means to keep them.
		old, ok := a.OldObject.(*corev1.Pod)
		if !ok {
			return apierrors.NewBadRequest(fmt.Sprintf("resource was marked with kind Pod but was unable to be converted (%T)", a.OldObject))
		}
		if pod.Spec.Priority == nil {
			pod.Spec.Priority = old.Spec.Priority
		}
		if pod.Spec.PreemptionPolicy == nil {
			pod.Spec.PreemptionPolicy = old.Spec.PreemptionPolicy
		}
	}
	return nil
}

// admitNewPod resolves the pod's class (or the global default) into its
// priority and preemption policy. A pod may repeat them but not differ.
func (p *Plugin) admitNewPod(ctx context.Context, pod *corev1.Pod) error {
	var (
		priority int32
		policy   *corev1.PreemptionPolicy
	)
	if pod.Spec.PriorityClassName == "" {
		pc, err := p.globalDefault(ctx)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("failed to get default priority class: %w", err))
		}
		if pc != nil {
			pod.Spec.PriorityClassName, priority, policy = pc.Name, pc.Value, pc.PreemptionPolicy
		} else {
			lower := corev1.PreemptLowerPriority
			priority, policy = DefaultPriorityWhenNoDefaultClassExists, &lower
		}
	} else {
		pc, err := p.classes.Get(ctx, pod.Spec.PriorityClassName)
		switch {
		case apierrors.IsNotFound(err):
			return fmt.Errorf("no PriorityClass with name %s was found", pod.Spec.PriorityClassName)
		case err != nil:
			return apierrors.NewInternalError(fmt.Errorf("failed to get PriorityClass with name %s: %w", pod.Spec.PriorityClassName, err))
		}
		priority, policy = pc.Value, pc.PreemptionPolicy
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority)
	}
	pod.Spec.Priority = &priority
	if policy != nil {
		if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != *policy {
			return fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pod.Spec.PreemptionPolicy, *policy)
		}
		p := *policy
		pod.Spec.PreemptionPolicy = &p
	}
	return nil
}

// globalDefault returns the global default class, nil when there is none.
// Should a race have made two, the lower value wins, as upstream picks.
func (p *Plugin) globalDefault(ctx context.Context) (*schedulingv1.PriorityClass, error) {
	list, err := p.classes.List(ctx)
	if err != nil {
		return nil, err
	}
	var def *schedulingv1.PriorityClass
	for _, pc := range list {
		if pc.GlobalDefault && (def == nil || pc.Value < def.Value) {
			def = pc
		}
	}
	return def, nil
}

// Validate allows at most one global default class and keeps the system
// classes as they were built in.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource != "" || resource(a) != ClassesResource {
		return nil
	}
	if a.Operation == admission.Delete {
		if _, ok := schedulingv1.SystemPriorityClass(a.Name); ok {
			return errors.New("this is a system priority class and cannot be deleted")
		}
		return nil
	}
	pc, ok := a.Object.(*schedulingv1.PriorityClass)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("resource was marked with kind PriorityClass but was unable to be converted (%T)", a.Object))
	}
	if a.Operation == admission.Update {
		if err := checkSystemUnchanged(pc, a.OldObject); err != nil {
			return err
		}
	}
	if !pc.GlobalDefault {
		return nil
	}
	def, err := p.globalDefault(ctx)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("failed to get default priority class: %w", err))
	}
	if def != nil && (a.Operation == admission.Create || def.Name != pc.Name) {
		return fmt.Errorf("PriorityClass %s is already marked as default. Only one default can exist", def.Name)
	}
	return nil
}

// checkSystemUnchanged refuses an update of a built-in class that changes
// anything but its metadata.
func checkSystemUnchanged(pc *schedulingv1.PriorityClass, oldObj meta.Object) error {
	if _, ok := schedulingv1.SystemPriorityClass(pc.Name); !ok {
		return nil
	}
	old, ok := oldObj.(*schedulingv1.PriorityClass)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("resource was marked with kind PriorityClass but was unable to be converted (%T)", oldObj))
	}
	if pc.Value != old.Value || pc.GlobalDefault != old.GlobalDefault || pc.Description != old.Description ||
		!reflect.DeepEqual(pc.PreemptionPolicy, old.PreemptionPolicy) {
		return errors.New("this is a system priority class and cannot be changed")
	}
	return nil
}
