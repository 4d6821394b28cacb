package rbac

import (
	"fmt"
	"slices"
	"sync"

	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"
)

// subjectKey is a user name or a group name; a service account is the user
// system:serviceaccount:<namespace>:<name>.
type subjectKey struct {
	group bool
	name  string
}

type nsName struct{ namespace, name string }

// binding is what the index keeps of a RoleBinding or ClusterRoleBinding.
type binding struct {
	nsName   // namespace is "" for a ClusterRoleBinding
	ref      rbacv1.RoleRef
	subjects []subjectKey
	// allowed is the reason of a decision this binding allows, made once
	// here rather than per request.
	allowed string
}

func newBinding(namespace, name string, ref rbacv1.RoleRef, subjects []subjectKey) *binding {
	b := &binding{nsName: nsName{namespace, name}, ref: ref, subjects: subjects}
	if namespace != "" {
		b.allowed = fmt.Sprintf("RBAC: allowed by RoleBinding \"%s/%s\" of %s %q", namespace, name, ref.Kind, ref.Name)
	} else {
		b.allowed = fmt.Sprintf("RBAC: allowed by ClusterRoleBinding %q of %s %q", name, ref.Kind, ref.Name)
	}
	return b
}

// index holds the policy: roles by name and bindings by subject, so a
// decision looks up the user's name and groups instead of reading every
// binding. Rules are never changed in place: an update replaces the slice,
// so a reader may keep one after unlocking.
type index struct {
	// mu guards everything below.
	mu           sync.RWMutex
	roles        map[nsName][]rbacv1.PolicyRule
	clusterRoles map[string]*rbacv1.ClusterRole
	// roleBindings and clusterBindings find a binding by its name, to
	// replace or remove it.
	roleBindings    map[nsName]*binding
	clusterBindings map[string]*binding
	// nsSubjects holds the RoleBindings of each namespace by subject;
	// clusterSubjects the ClusterRoleBindings.
	nsSubjects      map[string]map[subjectKey][]*binding
	clusterSubjects map[subjectKey][]*binding
}

func newIndex() *index {
	return &index{
		roles:           map[nsName][]rbacv1.PolicyRule{},
		clusterRoles:    map[string]*rbacv1.ClusterRole{},
		roleBindings:    map[nsName]*binding{},
		clusterBindings: map[string]*binding{},
		nsSubjects:      map[string]map[subjectKey][]*binding{},
		clusterSubjects: map[subjectKey][]*binding{},
	}
}

// ServiceAccountUser is the user name of a service account.
func ServiceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

// subjectKeys returns the index keys of subjects; a service account without
// a namespace is in the binding's namespace. Unknown kinds match nobody.
func subjectKeys(subjects []rbacv1.Subject, namespace string) []subjectKey {
	keys := make([]subjectKey, 0, len(subjects))
	for _, s := range subjects {
		switch s.Kind {
		case rbacv1.UserKind:
			keys = append(keys, subjectKey{name: s.Name})
		case rbacv1.GroupKind:
			keys = append(keys, subjectKey{group: true, name: s.Name})
		case rbacv1.ServiceAccountKind:
			ns := s.Namespace
			if ns == "" {
				ns = namespace
			}
			if ns != "" && s.Name != "" {
				keys = append(keys, subjectKey{name: ServiceAccountUser(ns, s.Name)})
			}
		}
	}
	return keys
}

func (x *index) setRole(r *rbacv1.Role) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.setRoleLocked(r)
}

func (x *index) setRoleLocked(r *rbacv1.Role) { x.roles[nsName{r.Namespace, r.Name}] = r.Rules }

func (x *index) deleteRole(namespace, name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.roles, nsName{namespace, name})
}

func (x *index) setClusterRole(r *rbacv1.ClusterRole) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.setClusterRoleLocked(r)
}

func (x *index) setClusterRoleLocked(r *rbacv1.ClusterRole) { x.clusterRoles[r.Name] = r }

func (x *index) deleteClusterRole(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.clusterRoles, name)
}

func (x *index) setRoleBinding(b *rbacv1.RoleBinding) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.setRoleBindingLocked(b)
}

func (x *index) setRoleBindingLocked(b *rbacv1.RoleBinding) {
	nb := newBinding(b.Namespace, b.Name, b.RoleRef, subjectKeys(b.Subjects, b.Namespace))
	x.removeRoleBindingLocked(nb.nsName)
	x.roleBindings[nb.nsName] = nb
	bySubject := x.nsSubjects[b.Namespace]
	if bySubject == nil {
		bySubject = map[subjectKey][]*binding{}
		x.nsSubjects[b.Namespace] = bySubject
	}
	for _, k := range uniq(nb.subjects) {
		bySubject[k] = append(bySubject[k], nb)
	}
}

func (x *index) deleteRoleBinding(namespace, name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeRoleBindingLocked(nsName{namespace, name})
}

func (x *index) removeRoleBindingLocked(key nsName) {
	old := x.roleBindings[key]
	if old == nil {
		return
	}
	delete(x.roleBindings, key)
	bySubject := x.nsSubjects[key.namespace]
	for _, k := range uniq(old.subjects) {
		removeFrom(bySubject, k, old)
	}
	if len(bySubject) == 0 {
		delete(x.nsSubjects, key.namespace)
	}
}

func (x *index) setClusterRoleBinding(b *rbacv1.ClusterRoleBinding) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.setClusterRoleBindingLocked(b)
}

func (x *index) setClusterRoleBindingLocked(b *rbacv1.ClusterRoleBinding) {
	nb := newBinding("", b.Name, b.RoleRef, subjectKeys(b.Subjects, ""))
	x.removeClusterRoleBindingLocked(b.Name)
	x.clusterBindings[b.Name] = nb
	for _, k := range uniq(nb.subjects) {
		x.clusterSubjects[k] = append(x.clusterSubjects[k], nb)
	}
}

func (x *index) deleteClusterRoleBinding(name string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.removeClusterRoleBindingLocked(name)
}

func (x *index) removeClusterRoleBindingLocked(name string) {
	old := x.clusterBindings[name]
	if old == nil {
		return
	}
	delete(x.clusterBindings, name)
	for _, k := range uniq(old.subjects) {
		removeFrom(x.clusterSubjects, k, old)
	}
}

func removeFrom(m map[subjectKey][]*binding, k subjectKey, b *binding) {
	list := slices.DeleteFunc(m[k], func(e *binding) bool { return e == b })
	if len(list) == 0 {
		delete(m, k)
		return
	}
	m[k] = list
}

func uniq(keys []subjectKey) []subjectKey {
	out := keys[:0:0]
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// replace sets the part of the index kind names to objs, in one step, so
// a relist never shows readers an empty policy.
func (x *index) replace(kind string, objs []meta.Object) {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch kind {
	case "Role":
		x.roles = map[nsName][]rbacv1.PolicyRule{}
		for _, o := range objs {
			x.setRoleLocked(o.(*rbacv1.Role))
		}
	case "ClusterRole":
		x.clusterRoles = map[string]*rbacv1.ClusterRole{}
		for _, o := range objs {
			x.setClusterRoleLocked(o.(*rbacv1.ClusterRole))
		}
	case "RoleBinding":
		x.roleBindings = map[nsName]*binding{}
		x.nsSubjects = map[string]map[subjectKey][]*binding{}
		for _, o := range objs {
			x.setRoleBindingLocked(o.(*rbacv1.RoleBinding))
		}
	case "ClusterRoleBinding":
		x.clusterBindings = map[string]*binding{}
		x.clusterSubjects = map[subjectKey][]*binding{}
		for _, o := range objs {
			x.setClusterRoleBindingLocked(o.(*rbacv1.ClusterRoleBinding))
		}
	}
}

// refRulesLocked returns the rules a binding in namespace grants, and false
// when the role does not exist. A RoleBinding may refer to a Role in its
// namespace or a ClusterRole; a ClusterRoleBinding only to a ClusterRole.
func (x *index) refRulesLocked(ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, bool) {
	switch ref.Kind {
	case "Role":
		if namespace == "" {
			return nil, false
		}
		rules, ok := x.roles[nsName{namespace, ref.Name}]
		return rules, ok
	case "ClusterRole":
		cr, ok := x.clusterRoles[ref.Name]
		if !ok {
			return nil, false
		}
		return cr.Rules, true
	}
	return nil, false
}

// visit calls fn with the rules of every binding that applies to the user
// in namespace (cluster-wide bindings first, then the namespace's
// RoleBindings when namespace is set) until fn returns false. A binding
// whose role is missing is passed with ok false.
func (x *index) visit(name string, groups []string, namespace string, fn func(b *binding, rules []rbacv1.PolicyRule, ok bool) bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	bySubject := x.nsSubjects[namespace]
	tables := []map[subjectKey][]*binding{x.clusterSubjects}
	if namespace != "" && bySubject != nil {
		tables = append(tables, bySubject)
	}
	for _, m := range tables {
		if !x.visitKey(m, subjectKey{name: name}, fn) {
			return
		}
		for _, g := range groups {
			if !x.visitKey(m, subjectKey{group: true, name: g}, fn) {
				return
			}
		}
	}
}

func (x *index) visitKey(m map[subjectKey][]*binding, k subjectKey, fn func(*binding, []rbacv1.PolicyRule, bool) bool) bool {
	for _, b := range m[k] {
		rules, ok := x.refRulesLocked(b.ref, b.namespace)
		if !fn(b, rules, ok) {
			return false
		}
	}
	return true
}

// roleRules returns the rules of a role a binding in namespace refers to.
func (x *index) roleRules(ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.refRulesLocked(ref, namespace)
}

// clusterRoleList returns the ClusterRoles, for aggregation.
func (x *index) clusterRoleList() []*rbacv1.ClusterRole {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make([]*rbacv1.ClusterRole, 0, len(x.clusterRoles))
	for _, r := range x.clusterRoles {
		out = append(out, r)
	}
	return out
}
