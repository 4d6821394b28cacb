package controller

import "platform.io/client/informer"

// EnqueueHandler returns informer handlers that enqueue the key of every
// added, changed and deleted object. A resync (old == new) enqueues too, so a
// resync period doubles as a periodic reconcile.
func EnqueueHandler[T informer.Object](enqueue func(key string)) informer.ResourceEventHandler[T] {
	return informer.ResourceEventHandler[T]{
		OnAdd:    func(obj T, _ bool) { enqueue(informer.Key(obj)) },
		OnUpdate: func(_, obj T) { enqueue(informer.Key(obj)) },
		OnDelete: func(obj T) { enqueue(informer.Key(obj)) },
	}
}
