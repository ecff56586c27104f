package cluster

// Summary is what an [Index] keeps for each leaf and for each range of
// leaves: an upper bound of what the range can hold. S is the summary type
// itself, R the request it is asked about.
//
// Merge returns the summary of two adjacent ranges (s, then o). Admits
// reports whether some leaf of the range s summarises may hold r: it may
// answer true for a range none of whose leaves holds r (a bound, not an
// exact test), but it must answer false only when no leaf holds r, so it
// must not admit less in a merge than in either of its parts. A leaf's
// summary may itself be a bound; the caller then checks the leaf that
// [Index.Next] returns and asks again from the next one.
type Summary[S any, R any] interface {
	Merge(o S) S
	Admits(r R) bool
}

// Index is a segment tree over n leaves, numbered 0 to n-1, each holding a
// summary of type S (free resources, say, of one node); every inner entry
// is the merge of its two children. It answers "the first leaf at or after
// i that may hold r" without visiting the ranges whose summary rules r out.
// [Model] keeps its nodes' free vectors in one; a scheduler with another
// notion of a fit (GPUs shared per device, per-class bounds) gives it its
// own summary type.
//
// [Index.Set] costs O(log n) merges; [Index.Next] costs O(log n) Admits
// tests plus O(log n) for each range whose summary admits r while none of
// its leaves does. Nothing allocates after [NewIndex]. The zero Index has
// no leaves. An Index is not safe for concurrent use.
type Index[S Summary[S, R], R any] struct {
	// tree[1] is the root, leaf i is tree[size+i], and the children of
	// tree[k] are tree[2k] and tree[2k+1]; the leaves from n to size-1
	// hold none.
	tree    []S
	n, size int
	none    S
}

// NewIndex returns an Index over n leaves, leaf i summarised by leaf(i).
// none is the summary of an empty range: it fills the tree up to a power
// of two, so it must admit nothing and merge as an identity (a vector of
// -1s under a component-wise maximum, say). O(n) merges; one allocation.
func NewIndex[S Summary[S, R], R any](n int, none S, leaf func(i int) S) Index[S, R] {
	x := Index[S, R]{n: n, size: 1, none: none}
	for x.size < n {
		x.size *= 2
	}
	x.tree = make([]S, 2*x.size)
	for i := range x.size {
		if i < n {
			x.tree[x.size+i] = leaf(i)
		} else {
			x.tree[x.size+i] = none
		}
	}
	for k := x.size - 1; k >= 1; k-- {
		x.tree[k] = x.tree[2*k].Merge(x.tree[2*k+1])
	}
	return x
}

// Len returns the number of leaves.
func (x *Index[S, R]) Len() int { return x.n }

// Leaf returns leaf i's summary; i must be in [0, Len()). O(1).
func (x *Index[S, R]) Leaf(i int) S { return x.tree[x.size+i] }

// Root returns the summary of all the leaves, or none when there are
// none. O(1).
func (x *Index[S, R]) Root() S {
	if x.n == 0 {
		return x.none
	}
	return x.tree[1]
}

// Set replaces leaf i's summary; i must be in [0, Len()). O(log n) merges.
func (x *Index[S, R]) Set(i int, s S) {
	k := x.size + i
	x.tree[k] = s
	for k /= 2; k >= 1; k /= 2 {
		x.tree[k] = x.tree[2*k].Merge(x.tree[2*k+1])
	}
}

// Next returns the first leaf at or after from whose summary admits r, or
// -1 when there is none. It starts at the largest range that begins at
// from (the root when from is 0), moves right and up past the ranges whose
// summary rules r out, and down into the first one that admits r, moving
// on past every range in which no leaf does. A from below 0 counts as 0.
func (x *Index[S, R]) Next(from int, r R) int {
	from = max(from, 0)
	if from >= x.n {
		return -1
	}
	k := x.size + from
	for k&1 == 0 && k > 1 {
		k >>= 1 // the largest range that starts at from: the root for 0
	}
	for {
		for !x.tree[k].Admits(r) {
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

// down descends from range k, whose summary admits r, into the first
// child that admits r, down to a leaf (true); or it stops at a range that
// admits r while neither of its children does (false).
func (x *Index[S, R]) down(k int, r R) (int, bool) {
	for k < x.size {
		switch {
		case x.tree[2*k].Admits(r):
			k = 2 * k
		case x.tree[2*k+1].Admits(r):
			k = 2*k + 1
		default:
			return k, false
		}
	}
	return k, true
}

// right returns the range that follows range k at the same or a higher
// level, or 0 when k ends at the last leaf.
func (x *Index[S, R]) right(k int) int {
	for k&1 == 1 {
		k >>= 1
	}
	if k == 0 {
		return 0
	}
	return k + 1
}

// Clone returns an independent copy. O(n); one allocation.
func (x *Index[S, R]) Clone() Index[S, R] {
	c := *x
	c.tree = append([]S(nil), x.tree...)
	return c
}
