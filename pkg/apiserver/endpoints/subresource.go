package endpoints

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/patch"
	"platform.io/platform/pkg/apiserver/registry"
)

func (q *request) serveSubresource() {
	res := q.store.Resource
	switch sub := q.info.Subresource; {
	case sub == "status" && res.HasStatus:
		q.serveStatus()
	case sub == "scale" && res.Scale != nil:
		q.serveScale()
	case sub == "finalize" && res.Finalize != nil:
		if q.info.Verb != "update" {
			q.methodNotAllowed(q.r.Method + " on finalize")
			return
		}
		q.update(registry.FinalizePart)
	case res.Actions[sub] != nil:
		if q.info.Verb != "create" {
			q.methodNotAllowed(q.r.Method + " on " + sub)
			return
		}
		q.serveAction(res.Actions[sub])
	default:
		q.fail(apierrors.New(http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource"))
	}
}

func (q *request) serveStatus() {
	switch q.info.Verb {
	case "get":
		q.get()
	case "update":
		q.update(registry.StatusPart)
	case "patch":
		q.patch(registry.StatusPart)
	default:
		q.methodNotAllowed(q.r.Method + " on status")
	}
}

func (q *request) serveAction(act registry.Action) {
	dry, err := writeOptions(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	b, err := readObjectBody(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	decode := func(v any) error {
		if err := b.decode(v); err != nil {
			return err
		}
		obj, ok := v.(meta.Object)
		if !ok {
			return nil
		}
		return q.store.AdmitAction(q.ctx(), q.info.Subresource, q.info.Namespace, q.info.Name, obj, dry)
	}
	out, err := act(registry.ActionContext(q.ctx()), q.store, q.info.Namespace, q.info.Name, decode, dry)
	if err != nil {
		q.fail(err)
		return
	}
	// An action answering with a Status (binding, rollback) chooses the
	// HTTP code, as upstream's create handler lets it.
	code := http.StatusCreated
	if st, ok := out.(interface{ StatusCode() int32 }); ok && st.StatusCode() != 0 {
		code = int(st.StatusCode())
	}
	q.write(code, out)
}

// scaleOf builds the Scale view of obj.
func scaleOf(acc *registry.ScaleAccessor, obj meta.Object) *autoscalingv1.Scale {
	m := obj.GetObjectMeta()
	spec, status, selector := acc.Get(obj)
	sc := &autoscalingv1.Scale{
		TypeMeta: meta.TypeMeta{Kind: "Scale", APIVersion: "autoscaling/v1"},
		ObjectMeta: meta.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID,
			ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp,
		},
	}
	sc.Spec.Replicas = spec
	sc.Status.Replicas, sc.Status.Selector = status, selector
	return sc
}

func (q *request) serveScale() {
	acc := q.store.Resource.Scale
	switch q.info.Verb {
	case "get":
		obj, err := q.store.Get(q.ctx(), q.info.Namespace, q.info.Name)
		if err != nil {
			q.fail(err)
			return
		}
		q.write(http.StatusOK, scaleOf(acc, obj))
	case "update", "patch":
		q.writeScale(acc)
	default:
		q.methodNotAllowed(q.r.Method + " on scale")
	}
}

// writeScale replaces, patches or applies to the Scale of an object: the
// new replica count is written to the object, guarded by the Scale's
// resourceVersion on a replace.
func (q *request) writeScale(acc *registry.ScaleAccessor) {
	dry, err := writeOptions(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	isPatch := q.info.Verb == "patch"
	var pt patch.Type
	var b body
	var force bool
	if isPatch {
		// A Scale is a typed object even for a custom resource, so
		// strategic merge applies to it.
		if pt, b.data, err = patchBody(q.r, scaleApplyNotServed(q.store), false); err == nil {
			force, err = patchOptions(q.r, pt)
		}
	} else {
		b, err = readObjectBody(q.r)
	}
	if err != nil {
		q.fail(err)
		return
	}
	apply := pt == applyPatch
	transform := func(ctx context.Context, cur meta.Object) (meta.Object, error) {
		if cur == nil {
			// Apply does not create through the scale subresource.
			return nil, apierrors.NewNotFound(q.store.Resource.GroupResource(), q.info.Name)
		}
		var sc *autoscalingv1.Scale
		var err error
		if apply {
			sc, err = q.applyScale(ctx, acc, cur, b.data, force)
		} else {
			sc, err = q.newScale(acc, cur, isPatch, pt, b)
		}
		if err != nil {
			return nil, err
		}
		if sc.Spec.Replicas < 0 {
			return nil, apierrors.NewInvalid(meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, q.info.Name,
				[]meta.StatusCause{{Type: meta.CauseTypeFieldValueInvalid, Field: "spec.replicas", Message: "Invalid value: " + strconv.Itoa(int(sc.Spec.Replicas)) + ": must be greater than or equal to 0"}})
		}
		acc.SetReplicas(cur, sc.Spec.Replicas)
		if !isPatch && sc.ResourceVersion != "" {
			cur.GetObjectMeta().ResourceVersion = sc.ResourceVersion
		}
		return cur, nil
	}
	out, _, err := q.store.Update(q.ctx(), q.info.Namespace, q.info.Name, transform, registry.UpdateOptions{DryRun: dry, Patch: isPatch, Apply: apply, Subresource: "scale"})
	if err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusOK, scaleOf(acc, out))
}

// scaleApplyNotServed answers an apply to a scale subresource where the
// store keeps no managedFields or its kind has no Scale schema.
func scaleApplyNotServed(s *registry.Store) string {
	if why := applyNotServed(s); why != "" {
		return why
	}
	if !s.FieldManager().ServesScaleApply() {
		return "server-side apply to the scale subresource of " + s.Resource.Kind + " is not served"
	}
	return ""
}

// applyScale merges an applied Scale into cur's current Scale as the
// request's field manager, and sets cur's managedFields to match. A
// resourceVersion in the configuration is a precondition.
func (q *request) applyScale(ctx context.Context, acc *registry.ScaleAccessor, cur meta.Object, config []byte, force bool) (*autoscalingv1.Scale, error) {
	rv := cur.GetObjectMeta().ResourceVersion
	out, err := q.store.FieldManager().ApplyScale(cur, scaleOf(acc, cur), config, fieldmanager.ManagerFrom(ctx), force)
	if err != nil {
		return nil, err
	}
	sc := out.(*autoscalingv1.Scale)
	if err := q.checkNameAndNamespace(sc); err != nil {
		return nil, err
	}
	if _, err := q.atVersion(sc, rv); err != nil {
		return nil, err
	}
	return sc, nil
}

// newScale decodes the requested Scale: the body of a replace, or the
// current Scale with the patch applied.
func (q *request) newScale(acc *registry.ScaleAccessor, cur meta.Object, isPatch bool, pt patch.Type, b body) (*autoscalingv1.Scale, error) {
	if isPatch {
		original, err := json.Marshal(scaleOf(acc, cur))
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		if b.data, err = patch.Apply(pt, original, b.data, reflectScale); err != nil {
			return nil, patchError(err)
		}
	}
	sc := &autoscalingv1.Scale{}
	if err := b.decode(sc); err != nil {
		return nil, err
	}
	if sc.Kind != "" && sc.Kind != "Scale" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the kind in the body (%s) does not match the expected kind (Scale)", sc.Kind))
	}
	if !isPatch && sc.Name != q.info.Name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", sc.Name, q.info.Name))
	}
	return sc, nil
}

// reflectScale is the schema strategic merge patches of a Scale follow.
var reflectScale = reflect.TypeOf(autoscalingv1.Scale{})
