package crd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/controller"

	"platform.io/platform/pkg/apiserver/crd/applyschema"
	"platform.io/platform/pkg/apiserver/crd/conversion"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apiextensions/customresourcedefinition"
)

// Registrar serves and stops serving the rows of a definition: the API
// server builds their stores over its storage and watch caches and adds
// them to its handler, the same way it serves the built-in rows.
type Registrar interface {
	// Serve serves served under owner, replacing what owner served
	// before, and returns the store of storage (the row every served
	// row is stored as, which need not be served itself).
	Serve(owner string, served []*registry.Resource, storage *registry.Resource) (*registry.Store, error)
	// Unserve stops serving owner's rows.
	Unserve(owner string)
}

// Config is what the controller needs.
type Config struct {
	// Definitions is the store of customresourcedefinitions.
	Definitions *registry.Store
	// Registrar serves the definitions' rows.
	Registrar Registrar
	// OpenAPI, when set, publishes the served versions' schemas.
	OpenAPI Publisher
	// Builtin are the built-in rows, whose names a definition may not take.
	Builtin []*registry.Resource
	// Apply, when set, is what each version's server-side apply type
	// shares with the built-in kinds; nil leaves the rows without one.
	Apply *applyschema.Shared
	// Conversion calls the conversion webhooks of the definitions whose
	// strategy is Webhook; without it such definitions are not served.
	Conversion *conversion.Caller
	// CleanupInterval is how often a deleted definition's objects that
	// wait for their own finalizers are checked again; 0 means a second.
	CleanupInterval time.Duration
}

// Controller accepts the names of definitions, serves the established
// ones, and deletes a definition's objects before the definition goes.
type Controller struct {
	lg   *zap.Logger
	cfg  Config
	ctrl *controller.Controller
	// mu guards served, groups, listed and pending.
	mu sync.Mutex
	// served is what each definition serves now, by definition name.
	served map[string]*servedType
	// groups are the definitions seen, by group, so a change in one
	// revisits the others that may have been waiting for its names.
	groups map[string]map[string]bool
	// listed is set once the first list of the definitions is seen;
	// pending are the definitions of that list not reconciled yet.
	listed  bool
	pending map[string]bool
}

// servedType is a served definition: what it was built from and its rows.
type servedType struct {
	fingerprint string
	rows        *Rows
	store       *registry.Store
}

// New returns the controller; Run starts it.
func New(lg *zap.Logger, cfg Config) (*Controller, error) {
	if cfg.CleanupInterval <= 0 {
		cfg.CleanupInterval = time.Second
	}
	c := &Controller{lg: lg, cfg: cfg, served: map[string]*servedType{}, groups: map[string]map[string]bool{}}
	ctrl, err := controller.New(c, controller.Options{Name: "customresourcedefinitions", OnError: func(key string, err error) {
		lg.Info("custom resource definition not reconciled", zap.String("name", key), zap.Error(err))
	}})
	if err != nil {
		return nil, err
	}
	c.ctrl = ctrl
	return c, nil
}

// Run follows the definitions and reconciles them until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		registry.Follow(ctx, c.lg, c.cfg.Definitions, registry.Follower{
			Replace: func(objs []meta.Object) {
				c.firstList(objs)
				for _, o := range objs {
					c.observe(o.(*apiextv1.CustomResourceDefinition))
				}
				// Definitions deleted while the feed was down.
				c.mu.Lock()
				for name := range c.served {
					c.ctrl.Enqueue(name)
				}
				c.mu.Unlock()
			},
			Apply: func(obj meta.Object, _ bool) { c.observe(obj.(*apiextv1.CustomResourceDefinition)) },
		})
	})
	if err := c.ctrl.Run(ctx); err != nil {
		c.lg.Error("custom resource definition controller stopped", zap.Error(err))
	}
	wg.Wait()
}

// firstList records the definitions of the first list, which HasSynced
// waits for.
func (c *Controller) firstList(objs []meta.Object) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listed {
		return
	}
	c.listed = true
	c.pending = make(map[string]bool, len(objs))
	for _, o := range objs {
		c.pending[o.GetObjectMeta().Name] = true
	}
}

// HasSynced tells whether the definitions that existed when the
// controller started have each been reconciled once: served, or found
// wrong (a definition that cannot be served does not hold it back).
// It is upstream's crd-informer-synced, for /readyz.
func (c *Controller) HasSynced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listed && len(c.pending) == 0
}

// reconciled takes name off the definitions HasSynced waits for.
func (c *Controller) reconciled(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, name)
}

// observe queues crd and the other definitions of its group.
func (c *Controller) observe(crd *apiextv1.CustomResourceDefinition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := crd.Spec.Group
	if c.groups[g] == nil {
		c.groups[g] = map[string]bool{}
	}
	c.groups[g][crd.Name] = true
	for name := range c.groups[g] {
		c.ctrl.Enqueue(name)
	}
}

// Reconcile brings one definition's serving and status up to date.
func (c *Controller) Reconcile(ctx context.Context, name string) (controller.Result, error) {
	defer c.reconciled(name)
	obj, err := c.cfg.Definitions.Get(ctx, "", name)
	if apierrors.IsNotFound(err) {
		c.unserve(name)
		return controller.Result{}, nil
	}
	if err != nil {
		return controller.Result{}, err
	}
	crd := obj.(*apiextv1.CustomResourceDefinition)
	if crd.DeletionTimestamp != nil {
		return c.cleanup(ctx, crd)
	}
	others, err := c.others(ctx, crd)
	if err != nil {
		return controller.Result{}, err
	}
	status := crd.Status
	status.Conditions = slices.Clone(status.Conditions)
	accepted, reason, msg := acceptNames(crd, others, c.cfg.Builtin)
	now := meta.Now()
	if !accepted {
		customresourcedefinition.SetCondition(&status, apiextv1.CustomResourceDefinitionCondition{
			Type: apiextv1.NamesAccepted, Status: apiextv1.ConditionFalse, Reason: reason, Message: msg}, now)
		if !customresourcedefinition.IsTrue(&status, apiextv1.Established) {
			customresourcedefinition.SetCondition(&status, apiextv1.CustomResourceDefinitionCondition{
				Type: apiextv1.Established, Status: apiextv1.ConditionFalse, Reason: "NotAccepted", Message: "not all names are accepted"}, now)
		}
		return controller.Result{}, c.writeStatus(ctx, crd, status)
	}
	status.AcceptedNames = crd.Spec.Names
	customresourcedefinition.SetCondition(&status, apiextv1.CustomResourceDefinitionCondition{
		Type: apiextv1.NamesAccepted, Status: apiextv1.ConditionTrue, Reason: "NoConflicts", Message: "no conflicts found"}, now)
	served := *crd
	served.Status = status
	if err := c.serve(&served); err != nil {
		return controller.Result{}, err
	}
	customresourcedefinition.SetCondition(&status, apiextv1.CustomResourceDefinitionCondition{
		Type: apiextv1.Established, Status: apiextv1.ConditionTrue, Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"}, now)
	return controller.Result{}, c.writeStatus(ctx, crd, status)
}

// others lists the other definitions of crd's group.
func (c *Controller) others(ctx context.Context, crd *apiextv1.CustomResourceDefinition) ([]*apiextv1.CustomResourceDefinition, error) {
	l, err := c.cfg.Definitions.ListCached(ctx, "")
	if err != nil {
		return nil, err
	}
	objs, err := l.Objects()
	if err != nil {
		return nil, err
	}
	var out []*apiextv1.CustomResourceDefinition
	for _, o := range objs {
		other := o.(*apiextv1.CustomResourceDefinition)
		if other.Name != crd.Name && other.Spec.Group == crd.Spec.Group {
			out = append(out, other)
		}
	}
	return out, nil
}

// serve serves crd's rows, unless they are served already as they are.
func (c *Controller) serve(crd *apiextv1.CustomResourceDefinition) error {
	fp, err := fingerprint(crd)
	if err != nil {
		return err
	}
	c.mu.Lock()
	cur := c.served[crd.Name]
	c.mu.Unlock()
	if cur != nil && cur.fingerprint == fp {
		return nil
	}
	rows, err := BuildRows(crd, c.cfg.Apply, c.cfg.Conversion)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", controller.ErrTerminal, crd.Name, err)
	}
	if rows.Storage == nil {
		return fmt.Errorf("%w: %s has no storage version", controller.ErrTerminal, crd.Name)
	}
	store, err := c.cfg.Registrar.Serve(crd.Name, rows.Served, rows.Storage)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.served[crd.Name] = &servedType{fingerprint: fp, rows: rows, store: store}
	c.mu.Unlock()
	c.publish(crd, rows)
	c.lg.Info("serving custom resource", zap.String("name", crd.Name), zap.Int("versions", len(rows.Served)))
	return nil
}

// publish puts the served versions of crd in the OpenAPI documents. A
// failure leaves the type served, undocumented.
func (c *Controller) publish(crd *apiextv1.CustomResourceDefinition, rows *Rows) {
	if c.cfg.OpenAPI == nil {
		return
	}
	versions, err := openAPIVersions(crd, rows)
	if err == nil {
		err = c.cfg.OpenAPI.SetCustom(crd.Name, versions)
	}
	if err != nil {
		c.cfg.OpenAPI.RemoveCustom(crd.Name)
		c.lg.Error("custom resource not published in the OpenAPI documents", zap.String("name", crd.Name), zap.Error(err))
	}
}

// fingerprint identifies what a definition's rows are built from.
func fingerprint(crd *apiextv1.CustomResourceDefinition) (string, error) {
	b, err := json.Marshal(struct {
		Spec  apiextv1.CustomResourceDefinitionSpec  `json:"spec"`
		Names apiextv1.CustomResourceDefinitionNames `json:"names"`
	}{crd.Spec, crd.Status.AcceptedNames})
	return string(b), err
}

func (c *Controller) unserve(name string) {
	c.mu.Lock()
	_, ok := c.served[name]
	delete(c.served, name)
	c.mu.Unlock()
	if ok {
		c.cfg.Registrar.Unserve(name)
		if c.cfg.OpenAPI != nil {
			c.cfg.OpenAPI.RemoveCustom(name)
		}
		c.lg.Info("stopped serving custom resource", zap.String("name", name))
	}
}

// writeStatus writes status when it differs from crd's.
func (c *Controller) writeStatus(ctx context.Context, crd *apiextv1.CustomResourceDefinition, status apiextv1.CustomResourceDefinitionStatus) error {
	if statusEqual(crd.Status, status) {
		return nil
	}
	_, _, err := c.cfg.Definitions.Update(ctx, "", crd.Name, func(_ context.Context, cur meta.Object) (meta.Object, error) {
		o := cur.(*apiextv1.CustomResourceDefinition)
		if o.UID != crd.UID {
			return nil, apierrors.NewConflict(c.cfg.Definitions.Resource.GroupResource(), crd.Name, errors.New("the definition was replaced"))
		}
		o.Status.Conditions = status.Conditions
		o.Status.AcceptedNames = status.AcceptedNames
		return o, nil
	}, registry.UpdateOptions{Part: registry.StatusPart, Patch: true})
	return err
}

func statusEqual(a, b apiextv1.CustomResourceDefinitionStatus) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
