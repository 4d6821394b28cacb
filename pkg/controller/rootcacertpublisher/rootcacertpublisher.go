package rootcacertpublisher

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "root-ca-cert-publisher"

// The published ConfigMap and its key, as upstream names them with the
// brand replaced.
const (
	ConfigMapName = "platform-root-ca.crt"
	DataKey       = "ca.crt"
)

// Options are the loop's flags.
type Options struct {
	// RootCAFile is the bundle published; empty means the CA the
	// controller manager itself trusts the API server with (its
	// kubeconfig's).
	RootCAFile string
}

// AddFlags registers --root-ca-file.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.RootCAFile, "root-ca-file", o.RootCAFile, "If set, this root certificate authority is published in the platform-root-ca.crt ConfigMap of every namespace (key ca.crt), for clients there to verify the API server's serving certificate. Empty: the CA of the controller manager's own kubeconfig.")
}

// Validate checks that the file, when given, holds data.
func (o *Options) Validate() []error {
	if o.RootCAFile == "" {
		return nil
	}
	b, err := os.ReadFile(o.RootCAFile)
	if err != nil {
		return []error{fmt.Errorf("--root-ca-file: %w", err)}
	}
	if len(b) == 0 {
		return []error{fmt.Errorf("--root-ca-file: %s is empty", o.RootCAFile)}
	}
	return nil
}

// Descriptor registers the loop.
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name:       Name,
		NewOptions: func() controller.Options { return &Options{} },
		New: func(c controller.Context, opts controller.Options) (run.Runnable, error) {
			return New(c, opts.(*Options))
		},
	}
}

// writer creates and updates config maps.
type writer interface {
	create(ctx context.Context, cm *corev1.ConfigMap) error
	update(ctx context.Context, cm *corev1.ConfigMap) error
}

type apiWriter struct{ c *client.Set }

func (a apiWriter) create(ctx context.Context, cm *corev1.ConfigMap) error {
	_, err := a.c.ConfigMaps.Namespace(cm.Namespace).Create(ctx, cm, meta.WriteOptions{})
	return err
}

func (a apiWriter) update(ctx context.Context, cm *corev1.ConfigMap) error {
	_, err := a.c.ConfigMaps.Namespace(cm.Namespace).Update(ctx, cm, meta.WriteOptions{})
	return err
}

// reconciler publishes the bundle in one namespace; keys are namespace
// names.
type reconciler struct {
	namespaces informer.Lister[*corev1.Namespace]
	configMaps informer.Lister[*corev1.ConfigMap]
	write      writer
	bundle     string
}

// Reconcile creates the ConfigMap of the namespace key, or sets its data
// back to the bundle alone when it differs.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, err := r.namespaces.Get(key)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("namespace %s: %w", key, err)
	}
	if ns.DeletionTimestamp != nil || ns.Status.Phase == corev1.NamespaceTerminating {
		return ctrl.Result{}, nil
	}
	want := map[string]string{DataKey: r.bundle}
	cur, err := r.configMaps.Namespace(key).Get(ConfigMapName)
	switch {
	case apierrors.IsNotFound(err):
		cm := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: ConfigMapName, Namespace: key}, Data: want}
		if err := r.write.create(ctx, cm); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, fmt.Errorf("create config map %s/%s: %w", key, ConfigMapName, err)
		}
		return ctrl.Result{}, nil
	case err != nil:
		return ctrl.Result{}, fmt.Errorf("config map %s/%s: %w", key, ConfigMapName, err)
	}
	if maps.Equal(cur.Data, want) && len(cur.BinaryData) == 0 {
		return ctrl.Result{}, nil
	}
	cm := *cur
	cm.Data, cm.BinaryData = want, nil
	if err := r.write.update(ctx, &cm); err != nil && !apierrors.IsNotFound(err) {
		// A conflict is retried against the newer object the cache gets.
		return ctrl.Result{}, fmt.Errorf("update config map %s/%s: %w", key, ConfigMapName, err)
	}
	return ctrl.Result{}, nil
}

// bundle is the CA bundle to publish: --root-ca-file, or the CA of the
// client's configuration.
func bundle(c controller.Context, o *Options) (string, error) {
	path := o.RootCAFile
	if path == "" {
		if c.Config != nil && len(c.Config.TLS.CAData) > 0 {
			return string(c.Config.TLS.CAData), nil
		}
		if c.Config != nil {
			path = c.Config.TLS.CAFile
		}
	}
	if path == "" {
		return "", errors.New("no --root-ca-file and no CA in the kubeconfig: nothing to publish")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("root CA: %w", err)
	}
	return string(b), nil
}

// New declares the namespace and config map informers and returns the
// worker loop: a namespace is visited when it is added or changes, and
// when its platform-root-ca.crt is changed or deleted.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	ca, err := bundle(c, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	nsInf, err := client.Inform(c.Informers, c.Clients.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	cmInf, err := client.Inform(c.Informers, c.Clients.ConfigMaps)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	r := &reconciler{namespaces: nsInf.Lister(), configMaps: cmInf.Lister(), write: apiWriter{c.Clients}, bundle: ca}
	loop, err := c.NewLoop(Name, r, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := nsInf.AddEventHandler(informer.ResourceEventHandler[*corev1.Namespace]{
		OnAdd:    func(ns *corev1.Namespace, _ bool) { loop.Enqueue(ns.Name) },
		OnUpdate: func(_, ns *corev1.Namespace) { loop.Enqueue(ns.Name) },
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	ours := func(cm *corev1.ConfigMap) {
		if cm.Name == ConfigMapName {
			loop.Enqueue(cm.Namespace)
		}
	}
	if _, err := cmInf.AddEventHandler(informer.ResourceEventHandler[*corev1.ConfigMap]{
		OnUpdate: func(_, cm *corev1.ConfigMap) { ours(cm) },
		OnDelete: ours,
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return loop, nil
}
