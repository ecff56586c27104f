package cluster

import "fmt"

// Vec is what an [Index] keeps per leaf and per range of leaves, and what
// it is asked about: CPU, memory, whole GPUs and the share of one GPU,
// compared component by component. As a leaf it is what one node has
// free (its fully free GPUs in GPU and the largest free share of one of
// them in GPUMilli: see [NodeFree]); as a range's summary, the
// component-wise maximum of its leaves; as a request, what one node must
// have free. No component is negative, but in noRoom, the summary of no
// leaf.
//
// Index, Vec and [FitMemory] are the simulator's own copies of the
// structures under requeue/cluster.Model's first fit: the library keeps
// them unexported (no embedder calls them), and its vectors have no
// GPUMilli, which only this trace's shared GPUs need.
type Vec struct {
	MilliCPU int64 // CPU in thousandths of a core
	Memory   int64 // memory in bytes
	GPU      int64 // whole GPU devices
	GPUMilli int64 // a share of one GPU device, in thousandths
}

// noRoom is the summary of no leaf: every component -1, so that it holds
// no request and the maximum of it and any leaf is that leaf. SetMask
// puts it in a reserved node's leaf of State's fit tree.
var noRoom = Vec{-1, -1, -1, -1}

// Fits reports whether v fits into free: every component of v is at most
// the same component of free.
func (v Vec) Fits(free Vec) bool {
	return v.MilliCPU <= free.MilliCPU && v.Memory <= free.Memory && v.GPU <= free.GPU && v.GPUMilli <= free.GPUMilli
}

// Max returns the component-wise maximum of v and o.
func (v Vec) Max(o Vec) Vec {
	return Vec{max(v.MilliCPU, o.MilliCPU), max(v.Memory, o.Memory), max(v.GPU, o.GPU), max(v.GPUMilli, o.GPUMilli)}
}

// Index is a segment tree over n leaves, numbered 0 to n-1, each holding a
// [Vec] (the free resources of one node); every range of leaves is
// summarised by the component-wise maximum of its leaves. It answers "the
// first leaf at or after i whose vector holds r" without visiting the
// ranges whose maximum rules r out. A [State] keeps the nodes' free
// summaries in one. A request may fit a range's maximum while no leaf of it holds
// it (free GPUs on one node, free cores on another): [Index.Next] then
// moves on past that range, and [FitMemory] spares asking again.
//
// [Index.Set] costs O(log n); [Index.Next] costs O(log n) plus O(log n)
// for each range whose maximum holds the request while none of its leaves
// does: O(n) at worst. Nothing allocates after [NewIndex]. The zero Index
// has no leaves. An Index is not safe for concurrent use.
type Index struct {
	// tree[1] is the root, leaf i is tree[size+i], and the children of
	// tree[k] are tree[2k] and tree[2k+1]; the leaves from n to size-1
	// hold noRoom.
	tree    []Vec
	n, size int
}

// NewIndex returns an Index over n leaves, leaf i holding leaf(i). O(n);
// one allocation.
func NewIndex(n int, leaf func(i int) Vec) Index {
	x := Index{n: max(n, 0), size: 1}
	for x.size < x.n {
		x.size *= 2
	}
	x.tree = make([]Vec, 2*x.size)
	for i := range x.size {
		if i < x.n {
			x.tree[x.size+i] = leaf(i)
		} else {
			x.tree[x.size+i] = noRoom
		}
	}
	for k := x.size - 1; k >= 1; k-- {
		x.tree[k] = x.tree[2*k].Max(x.tree[2*k+1])
	}
	return x
}

// Len returns the number of leaves.
func (x *Index) Len() int { return x.n }

// Leaf returns leaf i's vector; i must be in [0, Len()). O(1).
func (x *Index) Leaf(i int) Vec { return x.tree[x.size+i] }

// Root returns the component-wise maximum of all the leaves, or noRoom
// when there are none. O(1).
func (x *Index) Root() Vec {
	if x.n == 0 {
		return noRoom
	}
	return x.tree[1]
}

// Set replaces leaf i's vector. It panics when i is outside [0, Len()),
// as a slice index would (the padding past Len() must keep noRoom).
// O(log n); it stops climbing at the first range whose maximum does not
// change.
func (x *Index) Set(i int, v Vec) {
	if uint(i) >= uint(x.n) {
		panic(fmt.Sprintf("cluster: Index.Set(%d) outside [0, %d)", i, x.n))
	}
	k := x.size + i
	x.tree[k] = v
	for k /= 2; k >= 1; k /= 2 {
		m := x.tree[2*k].Max(x.tree[2*k+1])
		if m == x.tree[k] {
			return // nor will any range above it
		}
		x.tree[k] = m
	}
}

// Next returns the first leaf at or after from whose vector holds r (r
// fits it), or -1 when there is none. A from below 0 counts as 0.
func (x *Index) Next(from int, r Vec) int {
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
		for !r.Fits(x.tree[k]) {
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
func (x *Index) down(k int, r Vec) (int, bool) {
	for k < x.size {
		switch {
		case r.Fits(x.tree[2*k]):
			k = 2 * k
		case r.Fits(x.tree[2*k+1]):
			k = 2*k + 1
		default:
			return k, false
		}
	}
	return k, true
}

// right returns the range that follows range k at the same or a higher
// level, or 0 when k ends at the last leaf.
func (x *Index) right(k int) int {
	for k&1 == 1 {
		k >>= 1
	}
	if k == 0 {
		return 0
	}
	return k + 1
}

// Clone returns an independent copy. O(n); one allocation.
func (x *Index) Clone() Index {
	c := *x
	c.tree = append([]Vec(nil), x.tree...)
	return c
}

// check verifies that every range holds the maximum of its halves and the
// padding noRoom; tests call it.
func (x *Index) check() error {
	for i := x.n; i < x.size; i++ {
		if x.tree[x.size+i] != noRoom {
			return fmt.Errorf("index: padding leaf %d holds %v", i, x.tree[x.size+i])
		}
	}
	for k := x.size - 1; k >= 1; k-- {
		if x.tree[k] != x.tree[2*k].Max(x.tree[2*k+1]) {
			return fmt.Errorf("index: range %d is not the maximum of its halves", k)
		}
	}
	return nil
}
