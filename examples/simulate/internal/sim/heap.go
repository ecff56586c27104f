package sim

// siftUp and siftDown are the two moves of a binary min-heap kept in a
// slice, shared by every heap of the simulator (events, timers, pending
// buckets and their merge, requeue victims). less(x, y) reports whether x
// comes first. They are generic functions over a typed slice rather than
// container/heap, whose Push and Pop box each element in an interface: the
// event loop pushes millions of events, and typed heaps allocate nothing
// once grown. A tie keeps the element nearer the root, so the heaps' order,
// and with it every report, is deterministic.

// siftUp restores the heap order of a after a[i] was added or lowered.
func siftUp[T any](a []T, i int, less func(x, y T) bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(a[i], a[p]) {
			return
		}
		a[i], a[p] = a[p], a[i]
		i = p
	}
}

// siftDown restores the heap order of a after a[i] was replaced or raised.
func siftDown[T any](a []T, i int, less func(x, y T) bool) {
	for {
		l := 2*i + 1
		if l >= len(a) {
			return
		}
		m := l
		if r := l + 1; r < len(a) && less(a[r], a[l]) {
			m = r
		}
		if !less(a[m], a[i]) {
			return
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
}

// popMin removes and returns a[0], the heap's first element, and returns the
// shortened heap.
func popMin[T any](a []T, less func(x, y T) bool) (T, []T) {
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	siftDown(a, 0, less)
	return top, a
}
