package authn

import (
	"net/http"
	"slices"
	"testing"

	"platform.io/platform/pkg/component/authn"
)

// FuzzImpersonation reads arbitrary impersonation headers: that must never
// panic, and the user a request is then served as may hold nothing that
// was not checked: its name, uid, every group and every extra value each
// have an impersonate check, but for the groups every user of the kind
// gets (system:authenticated, a service account's own groups).
func FuzzImpersonation(f *testing.F) {
	f.Add("alice", "dev", "", "u-1", "scopes", "view")
	f.Add("system:serviceaccount:ns:sa", "", "", "", "", "")
	f.Add("system:anonymous", "system:masters", "", "", "", "")
	f.Add("", "g", "", "", "", "")
	f.Add("bob", "", "", "", "%zz", "x")
	f.Add("system:serviceaccount:ns:sa:extra", "a", "b", "", "Reason%2Fa", "v")
	f.Fuzz(func(t *testing.T, user, group1, group2, uid, extraKey, extraValue string) {
		h := http.Header{}
		set := func(name, v string) {
			if v != "" {
				h[name] = append(h[name], v)
			}
		}
		set(ImpersonateUser, user)
		set(ImpersonateGroup, group1)
		set(ImpersonateGroup, group2)
		set(ImpersonateUID, uid)
		if extraKey != "" {
			set(ImpersonateExtraPrefix+extraKey, extraValue)
		}
		req, err := parseImpersonation(h)
		if err != nil || req == nil {
			return
		}
		actor := &authn.User{Name: "actor"}
		checked := map[string][]string{}
		for _, a := range req.attributes(actor) {
			if a.User != actor || a.Verb != "impersonate" {
				t.Fatalf("check %+v is not the actor's impersonate check", a)
			}
			checked[a.Resource+"/"+a.Subresource] = append(checked[a.Resource+"/"+a.Subresource], a.Name)
		}
		u := req.user()
		ns, sa, isSA := splitServiceAccount(u.Name)
		if isSA {
			if !slices.Contains(checked["serviceaccounts/"], sa) {
				t.Fatalf("service account %s/%s not checked: %v", ns, sa, checked)
			}
		} else if !slices.Contains(checked["users/"], u.Name) {
			t.Fatalf("user %q not checked: %v", u.Name, checked)
		}
		for _, g := range u.Groups {
			automatic := g == authn.AllAuthenticated || g == authn.AllUnauthenticated ||
				(isSA && len(req.groups) == 0 && (g == "system:serviceaccounts" || g == "system:serviceaccounts:"+ns))
			if !automatic && !slices.Contains(checked["groups/"], g) {
				t.Fatalf("group %q granted without a check: %v", g, checked)
			}
		}
		if u.UID != "" && !slices.Contains(checked["uids/"], u.UID) {
			t.Fatalf("uid %q granted without a check", u.UID)
		}
		for k, vs := range u.Extra {
			for _, v := range vs {
				if !slices.Contains(checked["userextras/"+k], v) {
					t.Fatalf("extra %q=%q granted without a check: %v", k, v, checked)
				}
			}
		}
	})
}
