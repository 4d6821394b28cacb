package endpoints

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/patch"
	"platform.io/platform/pkg/apiserver/registry"
)

func (q *request) ctx() context.Context { return q.r.Context() }

func (q *request) get() {
	obj, err := q.store.Get(q.ctx(), q.info.Namespace, q.info.Name)
	if err != nil {
		q.fail(err)
		return
	}
	query := q.r.URL.Query()
	if isTrue(query.Get("export")) {
		registry.Export(q.store.Resource, obj, isTrue(query.Get("exact")))
	}
	if q.out.format == formatTable {
		q.writeObjectTable(obj)
		return
	}
	q.write(http.StatusOK, obj)
}

func (q *request) list() {
	opts, err := q.listOptions()
	if err != nil {
		q.fail(err)
		return
	}
	list, err := q.store.List(q.ctx(), q.info.Namespace, opts)
	if err != nil {
		q.fail(err)
		return
	}
	if !q.features.RemainingItemCount {
		list.RemainingItemCount = nil
	}
	if q.out.format == formatTable {
		objs, err := list.Objects()
		if err != nil {
			q.fail(err)
			return
		}
		q.writeTable(objs, list.ListMeta)
		return
	}
	q.writeList(list)
}

// decodeBody reads and decodes the request body as an object of the
// resource, in JSON, YAML or protobuf.
func (q *request) decodeBody() (meta.Object, error) {
	b, err := readObjectBody(q.r)
	if err != nil {
		return nil, err
	}
	obj := q.store.Resource.New()
	if b.proto {
		if err := b.decode(obj); err != nil {
			return nil, err
		}
		return obj, checkTypeMeta(obj.GetTypeMeta(), q.store.Resource)
	}
	if err := decodeInto(q.w, q.r, b.data, obj, q.store.Resource); err != nil {
		return nil, err
	}
	return obj, nil
}

// checkNamespace fills in or checks the object's namespace against the URL's.
func (q *request) checkNamespace(obj meta.Object) error {
	m := obj.GetObjectMeta()
	if !q.store.Resource.Namespaced {
		m.Namespace = ""
		return nil
	}
	switch m.Namespace {
	case "":
		m.Namespace = q.info.Namespace
	case q.info.Namespace:
	default:
		return apierrors.NewBadRequest(fmt.Sprintf("the namespace of the provided object (%s) does not match the namespace sent on the request (%s)", m.Namespace, q.info.Namespace))
	}
	return nil
}

func (q *request) create() {
	if q.store.Resource.Namespaced && q.info.Namespace == "" {
		q.fail(apierrors.NewMethodNotSupported(q.store.Resource.GroupResource(), "create across all namespaces"))
		return
	}
	dry, err := writeOptions(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	obj, err := q.decodeBody()
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.checkNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	out, err := q.store.Create(q.ctx(), obj, dry)
	if err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusCreated, out)
}

// replaceWith returns a transform that replaces the object with obj.
func replaceWith(obj meta.Object) registry.TransformFunc {
	return func(context.Context, meta.Object) (meta.Object, error) { return obj, nil }
}

func (q *request) update(part registry.Part) {
	dry, err := writeOptions(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	obj, err := q.decodeBody()
	if err != nil {
		q.fail(err)
		return
	}
	if err := q.checkNameAndNamespace(obj); err != nil {
		q.fail(err)
		return
	}
	out, created, err := q.store.Update(q.ctx(), q.info.Namespace, q.info.Name, replaceWith(obj), registry.UpdateOptions{Part: part, DryRun: dry, Replace: true})
	if err != nil {
		q.fail(err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	q.write(code, out)
}

func (q *request) checkNameAndNamespace(obj meta.Object) error {
	if err := q.checkNamespace(obj); err != nil {
		return err
	}
	if n := obj.GetObjectMeta().Name; n != q.info.Name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", n, q.info.Name))
	}
	return nil
}

// patchTransform applies the request's patch to the current object.
func (q *request) patchTransform(pt patch.Type, body []byte) registry.TransformFunc {
	res := q.store.Resource
	// Where managedFields are kept, a patch that cannot name them (no
	// "managedFields" in it, and no escape that could spell it) leaves
	// them as they are: they are set aside rather than encoded, patched
	// and decoded with the object, of which they are often half the bytes.
	// Without them the field manager starts from the stored ones, which
	// are the same.
	aside := q.store.FieldManager() != nil && !bytes.Contains(body, []byte("managedFields")) && !bytes.Contains(body, []byte(`\u`))
	return func(_ context.Context, cur meta.Object) (meta.Object, error) {
		rv := cur.GetObjectMeta().ResourceVersion
		var managed []meta.ManagedFieldsEntry
		if aside {
			managed, cur.GetObjectMeta().ManagedFields = cur.GetObjectMeta().ManagedFields, nil
		}
		original, err := json.Marshal(cur)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		patched, err := patch.Apply(pt, original, body, schemaOf(res))
		if err != nil {
			return nil, patchError(err)
		}
		obj := res.New()
		if err := decodeInto(q.w, q.r, patched, obj, res); err != nil {
			return nil, patchedError(err, res.Kind)
		}
		if aside {
			obj.GetObjectMeta().ManagedFields = managed
		}
		if err := q.checkNameAndNamespace(obj); err != nil {
			return nil, err
		}
		return q.atVersion(obj, rv)
	}
}

// patchedError is the answer for a patch result that does not decode as
// the kind: unknown fields under Strict stay a 400; any other failure means
// the patch made an invalid object, a 422 as upstream answers.
func patchedError(err error, kind string) error {
	var strict *strictError
	if errors.As(err, &strict) {
		return err
	}
	return apierrors.New(http.StatusUnprocessableEntity, meta.StatusReasonInvalid,
		fmt.Sprintf("the patched object is not a valid %s: %s", kind, statusOf(err).Message))
}

func (q *request) patch(part registry.Part) {
	dry, err := writeOptions(q.r)
	if err != nil {
		q.fail(err)
		return
	}
	pt, body, err := patchBody(q.r, applyNotServed(q.store), q.store.Resource.Custom)
	if err != nil {
		q.fail(err)
		return
	}
	force, err := patchOptions(q.r, pt)
	if err != nil {
		q.fail(err)
		return
	}
	transform := q.patchTransform(pt, body)
	apply := pt == applyPatch
	if apply {
		transform = q.applyTransform(body, part, force)
	}
	out, created, err := q.store.Update(q.ctx(), q.info.Namespace, q.info.Name, transform, registry.UpdateOptions{Part: part, DryRun: dry, Patch: true, Apply: apply})
	if err != nil {
		q.fail(err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	q.write(code, out)
}

// applyTransform merges an applied configuration into the current object
// (nil when apply creates it) as the request's field manager.
func (q *request) applyTransform(config []byte, part registry.Part, force bool) registry.TransformFunc {
	subresource := ""
	if part == registry.StatusPart {
		subresource = "status"
	}
	return func(ctx context.Context, cur meta.Object) (meta.Object, error) {
		rv := ""
		if cur != nil {
			rv = cur.GetObjectMeta().ResourceVersion
		}
		obj, err := q.store.FieldManager().Apply(cur, config, fieldmanager.ManagerFrom(ctx), subresource, force)
		if err != nil {
			return nil, err
		}
		if err := q.checkNameAndNamespace(obj); err != nil {
			return nil, err
		}
		return q.atVersion(obj, rv)
	}
}

// atVersion sets obj's resourceVersion to rv, the version the patch or
// apply configuration was applied to. A resourceVersion the client put in
// the patch or configuration is a precondition, as upstream: another one
// is a conflict.
func (q *request) atVersion(obj meta.Object, rv string) (meta.Object, error) {
	m := obj.GetObjectMeta()
	if m.ResourceVersion != "" && m.ResourceVersion != rv {
		return nil, apierrors.NewConflict(q.store.Resource.GroupResource(), q.info.Name,
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	m.ResourceVersion = rv
	return obj, nil
}

func (q *request) delete() {
	opts, err := q.deleteOptions()
	if err != nil {
		q.fail(err)
		return
	}
	res, err := q.store.Delete(q.ctx(), q.info.Namespace, q.info.Name, opts)
	if err != nil {
		q.fail(err)
		return
	}
	if !res.Deleted {
		code := http.StatusOK
		if o := opts.OrphanDependents; o != nil && !*o {
			code = http.StatusAccepted
		}
		q.write(code, res.Object)
		return
	}
	m := res.Object.GetObjectMeta()
	q.write(http.StatusOK, successStatus(q.info.APIGroup, q.info.Resource, m.Name, m.UID))
}

func (q *request) deleteCollection() {
	if q.store.Resource.Namespaced && q.info.Namespace == "" && q.info.Resource != "namespaces" {
		// Upstream allows a cluster-wide delete collection of a namespaced type
		// only through each namespace; keep the same shape.
		q.fail(apierrors.NewMethodNotSupported(q.store.Resource.GroupResource(), "deletecollection across all namespaces"))
		return
	}
	lo, err := q.listOptions()
	if err != nil {
		q.fail(err)
		return
	}
	do, err := q.deleteOptions()
	if err != nil {
		q.fail(err)
		return
	}
	if _, err := q.store.DeleteCollection(q.ctx(), q.info.Namespace, lo, do); err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusOK, meta.Status{TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: meta.StatusSuccess})
}

// deleteOptions reads the delete options and checks them against the feature gates.
func (q *request) deleteOptions() (*meta.DeleteOptions, error) {
	opts, err := deleteOptions(q.r)
	if err == nil && len(opts.DryRun) > 0 && !q.features.DryRun {
		err = apierrors.NewBadRequest("dry-run requests are disabled: the DryRun feature gate is off")
	}
	return opts, err
}

// deleteOptions reads DeleteOptions from the body, then lets query
// parameters override it.
func deleteOptions(r *http.Request) (*meta.DeleteOptions, error) {
	opts := &meta.DeleteOptions{}
	b, err := readObjectBody(r)
	if err != nil {
		return nil, err
	}
	if len(b.data) > 0 {
		if err := b.decode(opts); err != nil {
			return nil, err
		}
		if k := opts.Kind; k != "" && k != "DeleteOptions" {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("the body of a delete must be a DeleteOptions, not a %s", k))
		}
	}
	query := r.URL.Query()
	if v := query.Get("gracePeriodSeconds"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("gracePeriodSeconds %q is not an integer", v))
		}
		opts.GracePeriodSeconds = &n
	}
	if v := query.Get("orphanDependents"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("orphanDependents %q is not a boolean", v))
		}
		opts.OrphanDependents = &b
	}
	if v := query.Get("propagationPolicy"); v != "" {
		p := meta.DeletionPropagation(v)
		opts.PropagationPolicy = &p
	}
	if dry, err := writeOptions(r); err != nil {
		return nil, err
	} else if dry {
		opts.DryRun = []string{meta.DryRunAll}
	}
	return opts, nil
}

// listOptions reads the list query parameters.
func (q *request) listOptions() (registry.ListOptions, error) {
	query := q.r.URL.Query()
	opts := registry.ListOptions{ResourceVersion: query.Get("resourceVersion"), Continue: query.Get("continue")}
	if err := listParamsOnly(query); err != nil {
		return opts, err
	}
	if err := validateListParams(query, false); err != nil {
		return opts, err
	}
	if !q.features.ListChunking {
		// Chunking is off: a server may ignore limit (the spec's chunked lists, rule 5).
		opts.Continue = ""
	} else if v := query.Get("limit"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return opts, apierrors.NewBadRequest(fmt.Sprintf("limit %q must be a non-negative integer", v))
		}
		opts.Limit = n
	}
	if v := query.Get("timeoutSeconds"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 0 {
			return opts, apierrors.NewBadRequest(fmt.Sprintf("timeoutSeconds %q must be a non-negative integer", v))
		}
	}
	var err error
	opts.Label, opts.Field, err = selectors(q.store.Resource, query.Get("labelSelector"), query.Get("fieldSelector"))
	return opts, err
}
