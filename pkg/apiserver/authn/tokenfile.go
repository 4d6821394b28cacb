package authn

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"platform.io/platform/pkg/component/authn"
)

// TokenFile authenticates the static tokens of --token-auth-file.
type TokenFile struct {
	users map[string]*authn.User
}

var _ TokenAuthenticator = (*TokenFile)(nil)

// ReadTokenFile reads the CSV file at path.
func ReadTokenFile(path string) (*TokenFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("authn: token file: %w", err)
	}
	defer f.Close()
	tf, err := ParseTokenFile(f)
	if err != nil {
		return nil, fmt.Errorf("authn: token file %s: %w", path, err)
	}
	return tf, nil
}

// ParseTokenFile reads upstream's static token format: one CSV record per
// line, token,user,uid and an optional fourth column of comma-separated
// groups ("g1,g2", quoted). Columns after the fourth are ignored. A record
// with an empty token is skipped; a later record of the same token
// replaces an earlier one. A record with fewer than three columns, or with
// an empty user name, is an error.
func ParseTokenFile(r io.Reader) (*TokenFile, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	tf := &TokenFile{users: map[string]*authn.User{}}
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return tf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(rec) < 3 {
			return nil, fmt.Errorf("record %d: want at least 3 columns (token, user name, uid), found %d", line, len(rec))
		}
		if rec[0] == "" {
			continue
		}
		if rec[1] == "" {
			return nil, fmt.Errorf("record %d: empty user name", line)
		}
		u := &authn.User{Name: rec[1], UID: rec[2]}
		if len(rec) > 3 {
			for _, g := range strings.Split(rec[3], ",") {
				if g = strings.TrimSpace(g); g != "" {
					u.Groups = append(u.Groups, g)
				}
			}
		}
		tf.users[rec[0]] = u
	}
}

// Len is the number of tokens.
func (tf *TokenFile) Len() int { return len(tf.users) }

// AuthenticateToken implements TokenAuthenticator: a token not in the file
// is not recognised.
func (tf *TokenFile) AuthenticateToken(_ context.Context, token string) (*authn.User, bool, error) {
	u, ok := tf.users[token]
	if !ok {
		return nil, false, nil
	}
	return &authn.User{Name: u.Name, UID: u.UID, Groups: slices.Clone(u.Groups)}, true, nil
}
