package deployment

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var deploymentsResource = meta.GroupResource{Group: appsv1.GroupName, Resource: "deployments"}

// rollback serves POST deployments/{name}/rollback, the spec's Rollback
// operation: it records the wanted revision in the DeprecatedRollbackTo
// annotation (with the request's updatedAnnotations), and the deployment
// controller copies that revision's template back and clears the
// annotation, as upstream did for its apps/v1beta1 rollbackTo.
func rollback(ctx context.Context, s *registry.Store, namespace, name string, decode registry.Decoder, dryRun bool) (meta.Object, error) {
	r, err := decodeRollback(decode, name)
	if err != nil {
		return nil, err
	}
	transform := func(_ context.Context, cur meta.Object) (meta.Object, error) {
		if cur == nil {
			return nil, apierrors.NewNotFound(deploymentsResource, name)
		}
		d := cur.(*appsv1.Deployment)
		if d.DeletionTimestamp != nil {
			return nil, apierrors.NewConflict(deploymentsResource, name, fmt.Errorf("deployment %s is being deleted", name))
		}
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		for k, v := range r.UpdatedAnnotations {
			d.Annotations[k] = v
		}
		d.Annotations[appsv1.DeprecatedRollbackTo] = strconv.FormatInt(r.RollbackTo.Revision, 10)
		return d, nil
	}
	opts := registry.UpdateOptions{Part: registry.Main, DryRun: dryRun, Patch: true}
	if _, _, err := s.Update(ctx, namespace, name, transform, opts); err != nil {
		return nil, err
	}
	return registry.NewSuccess(http.StatusOK, fmt.Sprintf("rollback request for deployment %q succeeded", name)), nil
}

// decodeRollback reads a DeploymentRollback body and checks it.
func decodeRollback(decode registry.Decoder, name string) (*appsv1.DeploymentRollback, error) {
	r := &appsv1.DeploymentRollback{}
	if err := decode(r); err != nil {
		return nil, err
	}
	if r.Kind != "" && r.Kind != "DeploymentRollback" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a DeploymentRollback, got kind %q", r.Kind))
	}
	if r.Name == "" {
		r.Name = name
	}
	if r.Name != name {
		return nil, apierrors.NewBadRequest("name in URL does not match name in DeploymentRollback object")
	}
	var errs field.ErrorList
	if r.RollbackTo.Revision < 0 {
		errs = append(errs, field.Invalid(field.NewPath("rollbackTo", "revision"), r.RollbackTo.Revision, "must be greater than or equal to 0"))
	}
	if len(errs) > 0 {
		gvk := meta.GroupVersionKind{Group: appsv1.GroupName, Version: "v1", Kind: "DeploymentRollback"}
		return nil, apierrors.NewInvalid(gvk, name, errs.Causes())
	}
	return r, nil
}
