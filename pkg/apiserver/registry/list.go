package registry

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/fields"
	"platform.io/client/api/jsontree"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/storage"
)

// ListOptions narrow a list.
type ListOptions struct {
	// ResourceVersion: "" for a consistent read, "0" for any, N for at least as fresh as N.
	ResourceVersion string
	Limit           int64
	Continue        string
	// Label and Field select objects; nil selects everything.
	Label labels.Selector
	Field fields.Selector
}

// continueToken is the decoded form of ListMeta.Continue.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

const tokenVersion = meta.GroupName + "/v1"

func encodeContinue(rv int64, startKey string) string {
	b, _ := json.Marshal(continueToken{APIVersion: tokenVersion, ResourceVersion: rv, StartKey: startKey})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeContinue(token string) (continueToken, error) {
	var t continueToken
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(token, "="))
	if err != nil {
		return t, fmt.Errorf("continue key is not valid base64: %w", err)
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("continue key is not valid: %w", err)
	}
	if t.APIVersion != tokenVersion {
		return t, fmt.Errorf("continue key version %q is not supported", t.APIVersion)
	}
	if t.ResourceVersion <= 0 || t.StartKey == "" || strings.Contains(t.StartKey, "..") || strings.HasPrefix(t.StartKey, "/") {
		return t, fmt.Errorf("continue key is not valid: bad position")
	}
	return t, nil
}

// predicate turns the selectors into a storage predicate over this
// resource's attributes.
func (s *Store) predicate(l labels.Selector, f fields.Selector) storage.Predicate {
	return storage.Predicate{Label: l, Field: f, GetAttrs: s.Attrs}
}

// Attrs computes the selector attributes of a stored object: its labels and
// selectable fields. A resource with only the metadata fields needs only
// the metadata of the value decoded, protobuf or JSON (custom objects,
// whose JSON trees cost far more to build than to skip over).
func (s *Store) Attrs(key string, value []byte) (storage.Attrs, error) {
	if s.Resource.SelectableFields == nil {
		var m *meta.ObjectMeta
		var err error
		switch {
		case bytes.HasPrefix(value, protobufPrefix):
			m, err = storedMetadata(value)
		case bytes.HasPrefix(value, []byte("{")):
			m, err = storedJSONMetadata(value)
		default:
			err = errNoMetadata
		}
		if err == nil {
			f := fields.Set{"metadata.name": m.Name}
			if s.Resource.Namespaced {
				f["metadata.namespace"] = m.Namespace
			}
			return storage.Attrs{Labels: m.Labels, Fields: f}, nil
		}
	}
	obj, err := s.decode(context.Background(), storage.KV{Key: key, Value: value})
	if err != nil {
		return storage.Attrs{}, err
	}
	return storage.Attrs{Labels: obj.GetObjectMeta().Labels, Fields: s.Resource.Fields(obj)}, nil
}

// errNoMetadata: the stored value is neither protobuf nor JSON.
var errNoMetadata = errors.New("no metadata")

// storedJSONMetadata decodes only the metadata of a JSON object: the
// rest is checked and skipped over, not decoded (of a custom object, far
// the larger part). Of duplicate metadata members the last counts, as in
// the decoding of a custom object.
func storedJSONMetadata(value []byte) (*meta.ObjectMeta, error) {
	members, err := jsontree.RawMembers(value, "metadata")
	if err != nil {
		return nil, err
	}
	m := &meta.ObjectMeta{}
	if raw, ok := members["metadata"]; ok {
		if err := json.Unmarshal(raw, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// storedMetadata decodes only the metadata (field 1) of an enveloped object.
func storedMetadata(value []byte) (*meta.ObjectMeta, error) {
	_, _, raw, err := protobuf.Decode(value)
	if err != nil {
		return nil, err
	}
	m := &meta.ObjectMeta{}
	err = protobuf.DecodeFields(raw, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		if num == 1 {
			return protobuf.ReadMessage(typ, data, m)
		}
		return protobuf.Skip(num, typ, data)
	})
	return m, err
}

// List returns the objects in namespace ns ("" for all namespaces).
func (s *Store) List(ctx context.Context, ns string, opts ListOptions) (*List, error) {
	prefix := s.keyPrefix(ns)
	so := storage.ListOptions{Limit: opts.Limit, Predicate: s.predicate(opts.Label, opts.Field)}
	if opts.Continue != "" {
		if rv := opts.ResourceVersion; rv != "" && rv != "0" {
			return nil, apierrors.NewBadRequest("specifying resource version is not allowed when using continue")
		}
		t, err := decodeContinue(opts.Continue)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		so.Revision, so.StartKey = t.ResourceVersion, prefix+t.StartKey
	} else {
		switch opts.ResourceVersion {
		case "":
			so.Consistent = true
		case "0":
		default:
			minRV, err := parseResourceVersion(opts.ResourceVersion)
			if err != nil {
				return nil, err
			}
			so.MinRevision = minRV
		}
	}
	res, err := s.storage.List(ctx, prefix, so)
	if err != nil {
		if opts.Continue != "" && apierrors.IsResourceExpired(s.interpret(err, "")) {
			return nil, s.expiredContinue(ctx, prefix, so.StartKey)
		}
		return nil, s.interpret(err, "")
	}
	if so.MinRevision > res.Revision {
		return nil, tooLarge(so.MinRevision, res.Revision)
	}
	out := &List{store: s, kvs: res.Items}
	if c := s.Resource.Convert; c != nil && c.FromStorageList != nil {
		if out.objs, err = s.decodeList(ctx, res.Items); err != nil {
			return nil, err
		}
	}
	out.Kind, out.APIVersion = s.Resource.ListKindName(), s.Resource.GroupVersion().String()
	out.ResourceVersion = strconv.FormatInt(res.Revision, 10)
	if res.More {
		out.Continue = encodeContinue(res.Revision, strings.TrimPrefix(res.NextKey, prefix))
		if res.Remaining >= 0 {
			n := res.Remaining
			out.RemainingItemCount = &n
		}
	}
	return out, nil
}

// tooLarge is the 504 for a resourceVersion the store has not reached.
func tooLarge(want, have int64) error {
	e := apierrors.NewTimeout(fmt.Sprintf("Too large resource version: %d, current: %d", want, have), 1)
	e.ErrStatus.Details.Causes = []meta.StatusCause{{Type: meta.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
	return e
}

// expiredContinue builds the 410 for a token whose snapshot was compacted,
// carrying a fresh token that continues from the same key at the latest revision.
func (s *Store) expiredContinue(ctx context.Context, prefix, startKey string) error {
	rev, err := s.storage.CurrentRevision(ctx)
	if err != nil {
		return s.interpret(err, "")
	}
	e := apierrors.NewResourceExpired("the snapshot of this continue token has been compacted: start the list again without continue, " +
		"or continue with the token in this status, which reads a newer snapshot that may disagree with earlier chunks")
	e.ErrStatus.Continue = encodeContinue(rev, strings.TrimPrefix(startKey, prefix))
	return e
}

func parseResourceVersion(rv string) (int64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, apierrors.NewBadRequest(fmt.Sprintf("invalid resource version %q", rv))
	}
	return n, nil
}
