package leaderelection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"platform.io/client/api/meta"
)

// errNotRead is returned by Update before the lock was read or created.
var errNotRead = errors.New("leaderelection: lock updated before it was read or created")

// lockBase is what every single-object lock knows.
type lockBase struct {
	namespace, name, identity string
	client                    Client
	events                    EventRecorder
}

// kindCodec tells an objectLock where its objects live and how the record
// sits in them.
type kindCodec[T any] struct {
	res      Resource
	typeMeta meta.TypeMeta
	// read extracts the record and the raw bytes that identify it.
	read func(*T) (*LeaderElectionRecord, []byte)
	// write puts r into the object; it must not modify anything the object
	// shares with others (maps, pointed-to values), only replace it.
	write func(*T, LeaderElectionRecord) error
}

// objectLock is a Lock kept in one API object of type T.
type objectLock[T any, P interface {
	*T
	meta.Object
}] struct {
	lockBase
	codec kindCodec[T]

	mu   sync.Mutex
	last P // the object as last read or written
}

func (l *objectLock[T, P]) Get(ctx context.Context) (*LeaderElectionRecord, []byte, error) {
	obj := P(new(T))
	if err := l.client.Get(ctx, l.codec.res, l.namespace, l.name, obj); err != nil {
		return nil, nil, err
	}
	l.remember(obj)
	rec, raw := l.codec.read(obj)
	return rec, raw, nil
}

func (l *objectLock[T, P]) Create(ctx context.Context, r LeaderElectionRecord) error {
	obj := P(new(T))
	m := obj.GetObjectMeta()
	m.Name, m.Namespace = l.name, l.namespace
	return l.send(ctx, obj, r, true)
}

func (l *objectLock[T, P]) Update(ctx context.Context, r LeaderElectionRecord) error {
	l.mu.Lock()
	last := l.last
	l.mu.Unlock()
	if last == nil {
		return errNotRead
	}
	obj := P(new(T))
	*obj = *last
	return l.send(ctx, obj, r, false)
}

// send writes r into obj (a fresh object or a shallow copy of the last one)
// and creates or replaces it.
func (l *objectLock[T, P]) send(ctx context.Context, obj P, r LeaderElectionRecord, create bool) error {
	*obj.GetTypeMeta() = l.codec.typeMeta
	if err := l.codec.write(obj, r); err != nil {
		return err
	}
	out := P(new(T))
	var err error
	if create {
		err = l.client.Create(ctx, l.codec.res, l.namespace, obj, out)
	} else {
		err = l.client.Update(ctx, l.codec.res, l.namespace, l.name, obj, out)
	}
	if err != nil {
		return err
	}
	l.remember(out)
	return nil
}

func (l *objectLock[T, P]) remember(obj P) {
	l.mu.Lock()
	l.last = obj
	l.mu.Unlock()
}

func (l *objectLock[T, P]) RecordEvent(msg string) {
	if l.events == nil {
		return
	}
	l.mu.Lock()
	var obj any
	if l.last != nil {
		obj = l.last
	}
	l.mu.Unlock()
	l.events.Event(obj, "Normal", "LeaderElection", l.identity+" "+msg)
}

func (l *objectLock[T, P]) Identity() string { return l.identity }

func (l *objectLock[T, P]) Describe() string { return l.namespace + "/" + l.name }

// readAnnotation reads the record from the leader annotation. An object
// without the annotation holds an empty record (free); one whose annotation
// does not parse is held by UnknownLeader, so it is taken only once the
// annotation has stayed unchanged for a lease.
func readAnnotation(m *meta.ObjectMeta) (*LeaderElectionRecord, []byte) {
	s, ok := m.Annotations[LeaderAnnotationKey]
	if !ok {
		return &LeaderElectionRecord{}, nil
	}
	var r LeaderElectionRecord
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return &LeaderElectionRecord{HolderIdentity: UnknownLeader}, []byte(s)
	}
	return &r, []byte(s)
}

// writeAnnotation stores r in the leader annotation of a copy of the map.
func writeAnnotation(m *meta.ObjectMeta, r LeaderElectionRecord) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("leaderelection: encoding the record: %w", err)
	}
	annotations := make(map[string]string, len(m.Annotations)+1)
	for k, v := range m.Annotations {
		annotations[k] = v
	}
	annotations[LeaderAnnotationKey] = string(data)
	m.Annotations = annotations
	return nil
}
