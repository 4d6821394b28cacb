package crd

import (
	"context"
	"fmt"
	"slices"

	"go.uber.org/zap"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/controller"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apiextensions/customresourcedefinition"
)

// cleanup deletes the objects of a definition being deleted, refusing new
// ones meanwhile; once none is left it stops serving the type and removes
// the cleanup finalizer, which lets the definition go. Objects held by
// their own finalizers stay served (their controllers still update them)
// and are checked again after the cleanup interval.
func (c *Controller) cleanup(ctx context.Context, crd *apiextv1.CustomResourceDefinition) (controller.Result, error) {
	if !crd.HasFinalizer(apiextv1.CustomResourceCleanupFinalizer) {
		c.unserve(crd.Name)
		return controller.Result{}, nil
	}
	c.mu.Lock()
	st := c.served[crd.Name]
	c.mu.Unlock()
	if st == nil && customresourcedefinition.IsTrue(&crd.Status, apiextv1.NamesAccepted) {
		// Served before this server started: serve it to delete its objects.
		if err := c.serve(crd); err != nil {
			return controller.Result{}, err
		}
		c.mu.Lock()
		st = c.served[crd.Name]
		c.mu.Unlock()
	}
	left := 0
	if st != nil {
		st.rows.Terminating.Store(true)
		var err error
		if left, err = deleteAll(ctx, st.store); err != nil {
			c.setTerminating(ctx, crd, "InstanceDeletionFailed", fmt.Sprintf("could not delete the objects: %v", err))
			return controller.Result{}, err
		}
	}
	if left > 0 {
		c.setTerminating(ctx, crd, "InstanceDeletionInProgress", "CustomResource deletion is in progress")
		return controller.Result{RequeueAfter: c.cfg.CleanupInterval}, nil
	}
	c.unserve(crd.Name)
	_, _, err := c.cfg.Definitions.Update(ctx, "", crd.Name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		o := cur.(*apiextv1.CustomResourceDefinition)
		o.Finalizers = slices.DeleteFunc(o.Finalizers, func(f string) bool { return f == apiextv1.CustomResourceCleanupFinalizer })
		customresourcedefinition.SetCondition(&o.Status, apiextv1.CustomResourceDefinitionCondition{
			Type: apiextv1.Terminating, Status: apiextv1.ConditionFalse, Reason: "InstanceDeletionCompleted", Message: "removed all instances"}, meta.Now())
		return o, nil
	}, registry.UpdateOptions{Patch: true})
	if apierrors.IsNotFound(err) {
		err = nil
	}
	return controller.Result{}, err
}

// deleteAll deletes every object of s and returns how many are left
// (waiting for their finalizers).
func deleteAll(ctx context.Context, s *registry.Store) (int, error) {
	l, err := s.List(ctx, "", registry.ListOptions{})
	if err != nil {
		return 0, err
	}
	objs, err := l.Objects()
	if err != nil {
		return 0, err
	}
	left := 0
	for _, o := range objs {
		m := o.GetObjectMeta()
		res, err := s.Delete(ctx, m.Namespace, m.Name, &meta.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if !res.Deleted {
			left++
		}
	}
	return left, nil
}

// setTerminating records the progress of the cleanup in the Terminating
// condition; a failure to record it is only logged, the cleanup goes on.
func (c *Controller) setTerminating(ctx context.Context, crd *apiextv1.CustomResourceDefinition, reason, msg string) {
	status := crd.Status
	status.Conditions = slices.Clone(status.Conditions)
	customresourcedefinition.SetCondition(&status, apiextv1.CustomResourceDefinitionCondition{
		Type: apiextv1.Terminating, Status: apiextv1.ConditionTrue, Reason: reason, Message: msg}, meta.Now())
	if err := c.writeStatus(ctx, crd, status); err != nil {
		c.lg.Info("cannot record the cleanup of a custom resource definition", zap.String("name", crd.Name), zap.Error(err))
	}
}
