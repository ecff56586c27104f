package runtime

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Resolver answers "which min-runtime protects this victim from this
// eviction?" for one queue tree and one [Config]. It is immutable and safe
// for concurrent use; a nil or zero Resolver resolves everything to a zero
// duration from the default. The package doc gives its costs.
type Resolver struct {
	tree   *queuetree.Tree
	method Method
	// The answers, in two levels so that the per-queue arrays hold no
	// pointers: preIdx[id] and recIdx[id] index the tables below with the
	// setting queue id inherits (0: the default; k: the entry
	// Config.Queues[k-1]); preTab[k] and recTab[m][k] are that setting's
	// Resolution (for reclaim, one table per method m, identical but for
	// their Method field), so a query is one index read and one copy.
	// The tables are one entry per setting, not per queue. Index Root of
	// the per-queue arrays is the default's, index None unused.
	preIdx, recIdx []int32
	preTab         []Resolution
	recTab         [2][]Resolution
	// Build state: which[id] is the k above of queue id's own entry of
	// Config.Queues (0 for none, so the first entry of a name wins), and
	// owns[k] that entry's setting.
	which []int32
	owns  []ownSetting
}

// ownSetting is a queue's own entry of Config.Queues.
type ownSetting struct {
	preempt, reclaim       time.Duration
	hasPreempt, hasReclaim bool
}

// NewResolver validates c against t and precomputes the resolver. The
// error joins every problem found, in this order: a nil or zero tree (one
// not built by [queuetree.New]); a negative
// default; an invalid Method; per entry of c.Queues in order, an empty
// queue name (the implicit root is configured by the defaults), a name
// listed twice, a negative Preempt or Reclaim; then one per configured
// queue name that t does not have, in input order.
//
// Beside an error it still returns a usable resolver, for a scheduler that
// must keep running on whatever settings it has, built with these repairs:
//
//   - a negative default counts as 0, as KAI-Scheduler's min-runtime plugin
//     does (it logs the error and uses 0s);
//   - a negative queue setting counts as an explicit 0: it stops
//     inheritance and never protects. KAI-Scheduler's resolver
//     (pkg/scheduler/plugins/minruntime/resolver.go) keeps such a value,
//     which also stops its walk, and then never protects a job that
//     started in the past;
//   - an invalid Method counts as MethodLCA;
//   - an entry with an empty name, or for a queue t does not have, is
//     ignored; of entries listed twice, the first is used.
//
// Only a nil or zero tree leaves nothing to build: the resolver is then nil.
// A strict caller stops on the error. Cost: O(n + q) time and memory for n
// queues and q configured queues.
func NewResolver(t *queuetree.Tree, c Config) (*Resolver, error) {
	if r := newClean(t, c); r != nil {
		return r, nil
	}
	var errs []error
	n := t.IDLimit() // 0 for a nil or zero Tree, else at least 2 (None, Root)
	switch {
	case t == nil:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree, got nil"))
	case n == 0:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree built by queuetree.New, got the zero Tree"))
	}
	if err := c.validate(); err != nil {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, joined.Unwrap()...) // one per problem
		} else {
			errs = append(errs, err)
		}
	}
	if n == 0 {
		return nil, errors.Join(errs...)
	}
	r := newResolver(t, c)
	errs = r.settingsByID(c.Queues, errs)
	r.inherit()
	return r, errors.Join(errs...)
}

// newResolver allocates a resolver for t (built) and c, with its
// per-queue arrays in one pointer-free allocation and its tables in
// another, the defaults' entries filled.
func newResolver(t *queuetree.Tree, c Config) *Resolver {
	n, q := t.IDLimit(), len(c.Queues)+1
	ints := make([]int32, 3*n)
	tabs := make([]Resolution, 3*q)
	r := &Resolver{tree: t, method: c.Method, which: ints[:n:n], preIdx: ints[n : 2*n : 2*n], recIdx: ints[2*n:],
		preTab: tabs[:q:q], recTab: [2][]Resolution{MethodLCA: tabs[q : 2*q : 2*q], MethodQueue: tabs[2*q:]},
		owns: make([]ownSetting, q)}
	if r.method > MethodQueue {
		r.method = MethodLCA
	}
	r.preTab[0] = Resolution{Duration: max(c.DefaultPreempt, 0), Source: queuetree.None, Action: ActionPreempt, Method: MethodQueue}
	r.recTab[MethodLCA][0] = Resolution{Duration: max(c.DefaultReclaim, 0), Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA}
	r.recTab[MethodQueue][0] = Resolution{Duration: max(c.DefaultReclaim, 0), Source: queuetree.None, Action: ActionReclaim, Method: MethodQueue}
	return r
}

// newClean is NewResolver for the common case, a tree built by
// queuetree and a Config without any problem, in one pass over the
// settings (one name lookup each, which also finds a repeated name)
// instead of Config.validate's map of names. It returns nil when it meets
// a problem; the caller then takes the full path, which reports every
// problem. On a clean Config both paths build the same resolver.
func newClean(t *queuetree.Tree, c Config) *Resolver {
	if t.IDLimit() == 0 || c.DefaultPreempt < 0 || c.DefaultReclaim < 0 || c.Method > MethodQueue {
		return nil
	}
	r := newResolver(t, c)
	for i := range c.Queues {
		s := &c.Queues[i]
		id, ok := t.Lookup(s.Queue)
		if !ok || r.which[id] != 0 || (s.Preempt != nil && *s.Preempt < 0) || (s.Reclaim != nil && *s.Reclaim < 0) {
			return nil
		}
		r.setOwn(id, int32(i+1), s)
	}
	r.inherit()
	return r
}

// setOwn records that queue id's own setting is s, the entry
// Config.Queues[k-1], and fills its table entries (negative values read
// as 0; an unset field's entries are never read).
func (r *Resolver) setOwn(id queuetree.ID, k int32, s *QueueSetting) {
	o := own(s)
	r.which[id], r.owns[k] = k, o
	name := r.tree.Name(id)
	if o.hasPreempt {
		setEntry(&r.preTab[k], max(o.preempt, 0), id, name, ActionPreempt, MethodQueue)
	}
	if o.hasReclaim {
		d := max(o.reclaim, 0)
		setEntry(&r.recTab[MethodLCA][k], d, id, name, ActionReclaim, MethodLCA)
		setEntry(&r.recTab[MethodQueue][k], d, id, name, ActionReclaim, MethodQueue)
	}
}

// setEntry sets the fields of e, a zeroed table entry, one by one: the name
// is then one pointer write, where assigning a whole Resolution takes a
// bulk write barrier while the garbage collector marks.
func setEntry(e *Resolution, d time.Duration, source queuetree.ID, name string, a Action, m Method) {
	e.Duration, e.Source, e.Action, e.Method = d, source, a, m
	e.SourceName = name
}

// settingsByID records each queue's own setting (the first entry of a
// name wins), appending an error per entry naming a queue the tree does
// not have. Entries with an empty name are skipped (Config.validate
// reports them). O(q).
func (r *Resolver) settingsByID(qs []QueueSetting, errs []error) []error {
	for i := range qs {
		name := qs[i].Queue
		if name == "" {
			continue
		}
		id, ok := r.tree.Lookup(name)
		if !ok {
			errs = append(errs, fmt.Errorf("runtime: queue %q has min-runtime settings but is not in the queue tree", name))
			continue
		}
		if r.which[id] == 0 {
			r.setOwn(id, int32(i+1), &qs[i])
		}
	}
	return errs
}

// inherit fills preIdx and recIdx top-down (parents first: queuetree IDs
// are a preorder): each queue inherits its parent's indexes unless its
// own setting sets the field. Pointer-free writes only. O(n).
func (r *Resolver) inherit() { r.inheritRange(queuetree.Root+1, queuetree.ID(len(r.which))) }

// inheritRange is inherit for the IDs lo..hi-1 (lo above Root), whose
// parents' indexes are already final: a subtree's range, or all queues.
func (r *Resolver) inheritRange(lo, hi queuetree.ID) {
	t, which, pre, rec := r.tree, r.which, r.preIdx, r.recIdx
	for id := lo; id < hi; id++ {
		p := t.Parent(id)
		pi, ri := pre[p], rec[p]
		if k := which[id]; k != 0 {
			if r.owns[k].hasPreempt {
				pi = k
			}
			if r.owns[k].hasReclaim {
				ri = k
			}
		}
		pre[id], rec[id] = pi, ri
	}
}

// own returns s as stored for comparison.
func own(s *QueueSetting) ownSetting {
	var o ownSetting
	if s.Preempt != nil {
		o.preempt, o.hasPreempt = *s.Preempt, true
	}
	if s.Reclaim != nil {
		o.reclaim, o.hasReclaim = *s.Reclaim, true
	}
	return o
}

// Tree returns the tree the resolver was built for (nil for a nil or zero
// Resolver).
func (r *Resolver) Tree() *queuetree.Tree {
	if r == nil {
		return nil
	}
	return r.tree
}

// Method returns the configured reclaim method (MethodLCA for a nil or zero
// Resolver).
func (r *Resolver) Method() Method {
	if r == nil {
		return MethodLCA
	}
	return r.method
}

// Resolve returns the min-runtime that protects a job in queue victim from
// an eviction of kind a by a job in queue preemptor, and the queue whose
// setting says so, by the package's resolution rules (the preemptor is
// consulted only by a reclaim with MethodLCA). An ID the tree did not
// issue resolves to the default, any other Action to a zero duration.
// O(1), or O(log depth) for a MethodLCA reclaim within one top-level
// queue; no allocation.
func (r *Resolver) Resolve(a Action, preemptor, victim queuetree.ID) Resolution {
	// Small enough to inline, so that a caller reads only the fields it
	// uses of the precomputed entry; the lookup itself is out of line.
	return *r.entry(a, preemptor, victim)
}

// entry returns the precomputed resolution Resolve answers: for
// ActionPreempt the one the victim inherits; for ActionReclaim the one
// inherited by c under MethodLCA, by the victim under MethodQueue; the
// default's (Root's) for an ID the tree did not issue; a zero duration
// from the default for a nil or zero Resolver and for an invalid Action.
// Valid IDs are Root..n-1, so one unsigned comparison of id-Root against
// n-1 tests each.
func (r *Resolver) entry(a Action, preemptor, victim queuetree.ID) *Resolution {
	m := r.Method()
	switch {
	case a > ActionReclaim:
		return &invalidAction[m&1][a]
	case r == nil:
		return &unbuilt[a] // preempt, or reclaim with MethodLCA
	case a == ActionPreempt:
		idx := r.preIdx
		n := uint(len(idx))
		switch {
		case n == 0:
			return &unbuilt[0]
		case uint(victim-queuetree.Root) >= n-1:
			return &r.preTab[0]
		}
		return &r.preTab[idx[victim]]
	}
	idx, tab := r.recIdx, r.recTab[m&1]
	n := uint(len(idx))
	switch {
	case n == 0:
		return &unbuilt[1+(m&1)]
	case uint(victim-queuetree.Root) >= n-1:
		return &tab[0]
	case m == MethodQueue:
		return &tab[idx[victim]]
	case uint(preemptor-queuetree.Root) >= n-1:
		return &tab[0]
	}
	return &tab[idx[r.tree.ChildOfLCA(preemptor, victim)]]
}

// invalidAction is what Resolve answers for an invalid Action, by method
// and action: a zero duration from the default. Read only.
var invalidAction = func() (t [2][256]Resolution) {
	for m := range t {
		for a := range t[m] {
			t[m][a] = Resolution{Source: queuetree.None, Action: Action(a), Method: Method(m)}
		}
	}
	return t
}()

// unbuilt is what the zero Resolver answers, by action and method
// (preempt, reclaim lca, reclaim queue). Read only.
var unbuilt = [3]Resolution{
	{Source: queuetree.None, Action: ActionPreempt, Method: MethodQueue},
	{Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA},
	{Source: queuetree.None, Action: ActionReclaim, Method: MethodQueue},
}
