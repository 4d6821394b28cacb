package informer

import (
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

func mustParse(t *testing.T, s string) labels.Selector {
	t.Helper()
	sel, err := labels.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func names(objs []*corev1.Pod) string {
	var out []string
	for _, o := range objs {
		out = append(out, Key(o))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

func TestLister(t *testing.T) {
	store := NewStore[*corev1.Pod]()
	store.Replace([]*corev1.Pod{
		pod("a", "web1", map[string]string{"app": "web", "tier": "front"}),
		pod("a", "db1", map[string]string{"app": "db"}),
		pod("b", "web2", map[string]string{"app": "web"}),
		pod("b", "none", nil),
	}, "1")
	l := NewLister(store, meta.GroupResource{Resource: "pods"})
	cases := []struct {
		ns   string // "*" = all namespaces
		sel  string // "-" = nil selector, "!" = labels.Nothing()
		want string
	}{
		{"*", "-", "a/db1,a/web1,b/none,b/web2"},
		{"*", "", "a/db1,a/web1,b/none,b/web2"},
		{"*", "!", ""},
		{"*", "app=web", "a/web1,b/web2"},
		{"*", "app in (web,db),tier!=front", "a/db1,b/web2"},
		{"*", "!app", "b/none"},
		{"a", "-", "a/db1,a/web1"},
		{"a", "app=web", "a/web1"},
		{"b", "app", "b/web2"},
		{"c", "-", ""},
	}
	for _, tc := range cases {
		t.Run(tc.ns+" "+tc.sel, func(t *testing.T) {
			var sel labels.Selector
			switch tc.sel {
			case "-":
			case "!":
				sel = labels.Nothing()
			default:
				sel = mustParse(t, tc.sel)
			}
			var got []*corev1.Pod
			var err error
			if tc.ns == "*" {
				got, err = l.List(sel)
			} else {
				got, err = l.Namespace(tc.ns).List(sel)
			}
			if err != nil {
				t.Fatal(err)
			}
			if names(got) != tc.want {
				t.Errorf("got %q, want %q", names(got), tc.want)
			}
		})
	}
}

func TestListerGet(t *testing.T) {
	store := NewStore[*corev1.Pod]()
	store.Add(pod("a", "web1", nil))
	store.Add(pod("", "cluster", nil))
	l := NewLister(store, meta.GroupResource{Resource: "pods"})
	cases := []struct {
		name, ns, obj string
		found         bool
	}{
		{"namespaced", "a", "web1", true},
		{"wrong namespace", "b", "web1", false},
		{"cluster-scoped", "", "cluster", true},
		{"namespaced object by cluster Get", "", "web1", false},
		{"missing", "a", "nope", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got *corev1.Pod
			var err error
			if tc.ns == "" {
				got, err = l.Get(tc.obj)
			} else {
				got, err = l.Namespace(tc.ns).Get(tc.obj)
			}
			if tc.found {
				if err != nil || got.Name != tc.obj {
					t.Errorf("Get = %v, %v", got, err)
				}
				return
			}
			if !apierrors.IsNotFound(err) || got != nil {
				t.Fatalf("Get = %v, %v; want NotFound", got, err)
			}
			var se *apierrors.StatusError
			if !errors.As(err, &se) || se.ErrStatus.Details.Kind != "pods" || se.ErrStatus.Details.Name != tc.obj {
				t.Errorf("NotFound details %+v", se.ErrStatus.Details)
			}
		})
	}
}
