package authn

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/component/authn"
)

func TestParseTokenFile(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]*authn.User
		wantErr string
	}{
		{name: "three columns", in: "t1,alice,1\n",
			want: map[string]*authn.User{"t1": {Name: "alice", UID: "1"}}},
		{name: "groups quoted", in: "t1,alice,1,\"a, b,,c\"\n",
			want: map[string]*authn.User{"t1": {Name: "alice", UID: "1", Groups: []string{"a", "b", "c"}}}},
		{name: "one group unquoted, extra columns ignored", in: "t1,alice,1,a,more\n",
			want: map[string]*authn.User{"t1": {Name: "alice", UID: "1", Groups: []string{"a"}}}},
		{name: "leading spaces and blank lines", in: "\n t1, alice, 1\n\nt2,bob,2\n",
			want: map[string]*authn.User{"t1": {Name: "alice", UID: "1"}, "t2": {Name: "bob", UID: "2"}}},
		{name: "empty token skipped", in: ",alice,1\nt2,bob,2\n",
			want: map[string]*authn.User{"t2": {Name: "bob", UID: "2"}}},
		{name: "later record wins", in: "t1,alice,1\nt1,bob,2\n",
			want: map[string]*authn.User{"t1": {Name: "bob", UID: "2"}}},
		{name: "empty file", in: "", want: map[string]*authn.User{}},
		{name: "too few columns", in: "t1,alice,1\nt2,bob\n", wantErr: "record 2: want at least 3 columns"},
		{name: "empty user", in: "t1,,1\n", wantErr: "record 1: empty user name"},
		{name: "bad quoting", in: "t1,\"alice,1\n", wantErr: "extraneous or missing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tf, err := ParseTokenFile(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, tf.users); d != "" {
				t.Errorf("users (-want +got):\n%s", d)
			}
		})
	}
}

func TestTokenFileAuthenticate(t *testing.T) {
	tf := tokenFile(t, "t1,alice,1,g\n")
	u, ok, err := tf.AuthenticateToken(context.Background(), "t1")
	if !ok || err != nil || u.Name != "alice" {
		t.Fatalf("t1: %+v %v %v", u, ok, err)
	}
	u.Groups[0] = "changed"
	if again, _, _ := tf.AuthenticateToken(context.Background(), "t1"); again.Groups[0] != "g" {
		t.Errorf("a caller's change reached the file's user: %v", again.Groups)
	}
	if _, ok, err := tf.AuthenticateToken(context.Background(), "t2"); ok || err != nil {
		t.Errorf("unknown token: ok=%v err=%v, want not recognised", ok, err)
	}
}

// FuzzParseTokenFile: the parser never panics, and every token it accepts
// authenticates as a user with a name.
func FuzzParseTokenFile(f *testing.F) {
	for _, s := range []string{"t1,alice,1\n", "t1,alice,1,\"a,b\"\n", ",x,1\n", "a,b\n", "\"", "t,u,1,\"g\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tf, err := ParseTokenFile(strings.NewReader(in))
		if err != nil {
			return
		}
		for tok, u := range tf.users {
			if tok == "" || u.Name == "" {
				t.Fatalf("accepted token %q for user %q", tok, u.Name)
			}
			got, ok, err := tf.AuthenticateToken(context.Background(), tok)
			if !ok || err != nil || got.Name != u.Name {
				t.Fatalf("token %q does not authenticate: %v %v", tok, ok, err)
			}
		}
	})
}
