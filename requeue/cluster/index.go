package cluster

import "fmt"

// noRoom is the summary of no leaf: every component -1, so that it holds
// no request and the maximum of it and any leaf is that leaf.
var noRoom = Resources{-1, -1, -1}

// freeIndex is a segment tree over n leaves, numbered 0 to n-1, each
// holding a [Resources] vector (the free resources of one node); every
// range of leaves is summarised by the component-wise maximum of its
// leaves. It answers "the first leaf at or after i whose vector holds r"
// without visiting the ranges whose maximum rules r out. [Model] keeps its
// nodes' free vectors in one. A request may fit a range's maximum while no
// leaf of it holds it (free GPUs on one node, free cores on another):
// freeIndex.Next then moves on past that range, and fitMemory spares
// asking again.
//
// freeIndex.Set costs O(log n); freeIndex.Next costs O(log n) plus
// O(log n) for each range whose maximum holds the request while none of
// its leaves does: O(n) at worst. Nothing allocates after newFreeIndex.
// The zero freeIndex has no leaves.
type freeIndex struct {
	// tree[1] is the root, leaf i is tree[size+i], and the children of
	// tree[k] are tree[2k] and tree[2k+1]; the leaves from n to size-1
	// hold noRoom.
	tree    []Resources
	n, size int
}

// newFreeIndex returns a freeIndex over n leaves, leaf i holding leaf(i). O(n);
// one allocation.
func newFreeIndex(n int, leaf func(i int) Resources) freeIndex {
	x := freeIndex{n: max(n, 0), size: 1}
	for x.size < x.n {
		x.size *= 2
	}
	x.tree = make([]Resources, 2*x.size)
	for i := range x.size {
		if i < x.n {
			x.tree[x.size+i] = leaf(i)
		} else {
			x.tree[x.size+i] = noRoom
		}
	}
	for k := x.size - 1; k >= 1; k-- {
		x.tree[k] = x.tree[2*k].max(x.tree[2*k+1])
	}
	return x
}

// Len returns the number of leaves.
func (x *freeIndex) Len() int { return x.n }

// Leaf returns leaf i's vector; i must be in [0, Len()). O(1).
func (x *freeIndex) Leaf(i int) Resources { return x.tree[x.size+i] }

// Root returns the component-wise maximum of all the leaves, or noRoom
// when there are none. O(1).
func (x *freeIndex) Root() Resources {
	if x.n == 0 {
		return noRoom
	}
	return x.tree[1]
}

// Set replaces leaf i's vector. It panics when i is outside [0, Len()),
// as a slice index would (the padding past Len() must keep noRoom).
// O(log n); it stops climbing at the first range whose maximum does not
// change.
func (x *freeIndex) Set(i int, v Resources) {
	if uint(i) >= uint(x.n) {
		panic(fmt.Sprintf("cluster: freeIndex.Set(%d) outside [0, %d)", i, x.n))
	}
	k := x.size + i
	x.tree[k] = v
	for k /= 2; k >= 1; k /= 2 {
		m := x.tree[2*k].max(x.tree[2*k+1])
		if m == x.tree[k] {
			return // nor will any range above it
		}
		x.tree[k] = m
	}
}

// Next returns the first leaf at or after from whose vector holds r (r
// fits it), or -1 when there is none. A from below 0 counts as 0.
func (x *freeIndex) Next(from int, r Resources) int {
	from = max(from, 0)
	if from >= x.n {
		return -1
	}
	// Start at the largest range that begins at from (the root for 0),
	// move right and up past the ranges that rule r out, and down into
	// the first one that may hold it, moving on past a range that holds r
	// while neither of its halves does.
	k := x.size + from
	for k&1 == 0 && k > 1 {
		k >>= 1
	}
	for {
		for !r.fits(x.tree[k]) {
			if k = x.right(k); k == 0 {
				return -1
			}
		}
		var leaf bool
		if k, leaf = x.down(k, r); leaf {
			if k-x.size >= x.n {
				return -1 // only the padding is left
			}
			return k - x.size
		}
		if k = x.right(k); k == 0 {
			return -1
		}
	}
}

// down descends from range k, whose maximum holds r, into the first half
// that holds r, down to a leaf (true); or it stops at a range neither of
// whose halves holds r (false).
func (x *freeIndex) down(k int, r Resources) (int, bool) {
	for k < x.size {
		switch {
		case r.fits(x.tree[2*k]):
			k = 2 * k
		case r.fits(x.tree[2*k+1]):
			k = 2*k + 1
		default:
			return k, false
		}
	}
	return k, true
}

// right returns the range that follows range k at the same or a higher
// level, or 0 when k ends at the last leaf.
func (x *freeIndex) right(k int) int {
	for k&1 == 1 {
		k >>= 1
	}
	if k == 0 {
		return 0
	}
	return k + 1
}

// Clone returns an independent copy. O(n); one allocation.
func (x *freeIndex) Clone() freeIndex {
	c := *x
	c.tree = append([]Resources(nil), x.tree...)
	return c
}

// check verifies that every range holds the maximum of its halves and the
// padding noRoom; Model.check calls it.
func (x *freeIndex) check() error {
	for i := x.n; i < x.size; i++ {
		if x.tree[x.size+i] != noRoom {
			return fmt.Errorf("index: padding leaf %d holds %v", i, x.tree[x.size+i])
		}
	}
	for k := x.size - 1; k >= 1; k-- {
		if x.tree[k] != x.tree[2*k].max(x.tree[2*k+1]) {
			return fmt.Errorf("index: range %d is not the maximum of its halves", k)
		}
	}
	return nil
}
