package runtime

import (
	"errors"
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Resolution is the min-runtime that applies to one eviction, and why.
type Resolution struct {
	// Duration is the min-runtime: the victim is protected while
	// now < start+Duration (see [Protected]); 0 means instantly evictable.
	Duration time.Duration
	// Source is the queue whose explicit setting applied, or
	// queuetree.None when the node-pool default applied.
	Source queuetree.ID
	// SourceName is Source's name, "" for the default.
	SourceName string
	// Action is the kind of eviction resolved.
	Action Action
	// Method is how the walk started: the configured Method for a reclaim;
	// always MethodQueue for a preemption (which walks from the victim's
	// queue).
	Method Method
}

// String explains r in one line, for logs and decision reasons, such as
// "reclaim min-runtime 10m from queue B (lca)" or
// "preempt min-runtime 0s from default (queue)". It allocates.
func (r Resolution) String() string {
	from := "default"
	if r.Source != queuetree.None {
		from = fmt.Sprintf("queue %s", r.SourceName)
	}
	return fmt.Sprintf("%v min-runtime %s from %s (%v)", r.Action, FormatDuration(r.Duration), from, r.Method)
}

// ProtectedUntil returns [ProtectedUntil](start, r.Duration).
func (r Resolution) ProtectedUntil(start time.Time) time.Time {
	return ProtectedUntil(start, r.Duration)
}

// Protected returns [Protected](start, r.Duration, now).
func (r Resolution) Protected(start, now time.Time) bool {
	return Protected(start, r.Duration, now)
}

// ErrUnknownQueue is wrapped by the errors of the name-based lookups
// ([Resolver.PreemptByName], [Resolver.ReclaimByName],
// [Resolver.ResolveByName]) when a queue name is not in the tree.
var ErrUnknownQueue = errors.New("runtime: unknown queue")

// Resolver answers "which min-runtime protects this victim from this
// eviction?" for one queue tree and one [Config].
//
// NewResolver precomputes, for every queue, the preempt and the reclaim
// min-runtime it inherits and the queue that set it, in one pass in
// increasing ID order (queuetree IDs are preorder, so a parent is always
// done before its children). Queries then cost:
//
//   - [Resolver.Preempt], and [Resolver.Reclaim] with MethodQueue: O(1),
//     one array read;
//   - [Resolver.Reclaim] with MethodLCA: O(log depth), one
//     [queuetree.Tree.LCA] and one [queuetree.Tree.ChildToward], then one
//     array read;
//   - the ...ByName variants: plus one map lookup per name.
//
// None of them allocates (the Resolution's SourceName is a stored string),
// and there is no per-pair cache: memory is O(queues) whatever the number
// of pairs asked.
//
// A Resolver is immutable and safe for concurrent use. A nil *Resolver is
// usable and resolves everything to a zero duration from the default.
// Queue IDs the tree did not issue (queuetree.None included) resolve to the
// default, never panic.
type Resolver struct {
	tree    *queuetree.Tree
	method  Method
	preempt []inherited // by queue ID
	reclaim []inherited // by queue ID
}

// inherited is the min-runtime a queue inherits for one action and the
// queue that set it (None: the default).
type inherited struct {
	d    time.Duration
	src  queuetree.ID
	name string // tree.Name(src), "" for the default
}

// NewResolver validates c against t and precomputes the resolver. The error
// joins every problem found (see [Config.Validate]) plus one per configured
// queue name that t does not have, in input order, and a nil tree.
//
// Cost: O(n + q) time and O(n) memory for n queues and q configured queues.
func NewResolver(t *queuetree.Tree, c Config) (*Resolver, error) {
	var errs []error
	if t == nil {
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree, got nil"))
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	if t == nil {
		return nil, errors.Join(errs...)
	}
	n := t.Len()
	settings := make([]*QueueSetting, n)
	for i := range c.Queues {
		s := &c.Queues[i]
		if s.Queue == "" {
			continue // reported by Validate
		}
		id, ok := t.Lookup(s.Queue)
		if !ok {
			errs = append(errs, fmt.Errorf("runtime: queue %q has min-runtime settings but is not in the queue tree", s.Queue))
			continue
		}
		settings[id] = s
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	r := &Resolver{
		tree:    t,
		method:  c.Method,
		preempt: make([]inherited, n),
		reclaim: make([]inherited, n),
	}
	r.preempt[queuetree.Root] = inherited{d: c.DefaultPreempt, src: queuetree.None}
	r.reclaim[queuetree.Root] = inherited{d: c.DefaultReclaim, src: queuetree.None}
	for id := queuetree.ID(1); int(id) < n; id++ {
		p := t.Parent(id)
		if p < 0 || p >= id {
			return nil, fmt.Errorf("runtime: queue tree is not in preorder: parent of %d is %d", id, p)
		}
		r.preempt[id] = r.preempt[p]
		r.reclaim[id] = r.reclaim[p]
		s := settings[id]
		if s == nil {
			continue
		}
		if s.Preempt != nil {
			r.preempt[id] = inherited{d: *s.Preempt, src: id, name: t.Name(id)}
		}
		if s.Reclaim != nil {
			r.reclaim[id] = inherited{d: *s.Reclaim, src: id, name: t.Name(id)}
		}
	}
	return r, nil
}

// Tree returns the tree the resolver was built for (nil for a nil Resolver).
func (r *Resolver) Tree() *queuetree.Tree {
	if r == nil {
		return nil
	}
	return r.tree
}

// Method returns the configured reclaim method (MethodLCA for a nil
// Resolver).
func (r *Resolver) Method() Method {
	if r == nil {
		return MethodLCA
	}
	return r.method
}

// Preempt resolves the min-runtime protecting a job in queue victim from
// in-queue preemption: the Preempt setting of the victim's queue or of its
// nearest ancestor that sets one, else the default. O(1), no allocation.
func (r *Resolver) Preempt(victim queuetree.ID) Resolution {
	res := Resolution{Source: queuetree.None, Action: ActionPreempt, Method: MethodQueue}
	if r == nil || uint(victim) >= uint(len(r.preempt)) {
		if r != nil {
			res.Duration = r.preempt[queuetree.Root].d
		}
		return res
	}
	in := r.preempt[victim]
	res.Duration, res.Source, res.SourceName = in.d, in.src, in.name
	return res
}

// Reclaim resolves the min-runtime protecting a job in queue victim from a
// reclaim by a job in queue reclaimer.
//
// With MethodQueue it is the Reclaim setting inherited by the victim's
// queue (the reclaimer is not consulted). With MethodLCA it is the Reclaim
// setting inherited by c, the child of l = LCA(reclaimer, victim) on the
// victim's side — or the victim's queue itself when it is l (the reclaimer
// is in the victim's queue or below it). Queues under different top-level
// queues meet at the implicit root, so c is then the victim's top-level
// queue. Either way, when nothing on the walk is set the default applies.
//
// An ID the tree did not issue, for the victim or (with MethodLCA) the
// reclaimer, resolves to the default. O(log depth) with MethodLCA, O(1)
// with MethodQueue; no allocation.
func (r *Resolver) Reclaim(reclaimer, victim queuetree.ID) Resolution {
	if r == nil {
		return Resolution{Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA}
	}
	res := Resolution{Source: queuetree.None, Action: ActionReclaim, Method: r.method}
	n := uint(len(r.reclaim))
	if uint(victim) >= n || (r.method == MethodLCA && uint(reclaimer) >= n) {
		res.Duration = r.reclaim[queuetree.Root].d
		return res
	}
	c := victim
	if r.method == MethodLCA {
		if l := r.tree.LCA(reclaimer, victim); l != victim {
			c = r.tree.ChildToward(l, victim)
		}
	}
	in := r.reclaim[c]
	res.Duration, res.Source, res.SourceName = in.d, in.src, in.name
	return res
}

// Resolve dispatches on a: [Resolver.Preempt](victim) for ActionPreempt
// (the preemptor shares the victim's queue and is not consulted),
// [Resolver.Reclaim](preemptor, victim) for ActionReclaim. Any other Action
// resolves to a zero duration from the default.
func (r *Resolver) Resolve(a Action, preemptor, victim queuetree.ID) Resolution {
	switch a {
	case ActionPreempt:
		return r.Preempt(victim)
	case ActionReclaim:
		return r.Reclaim(preemptor, victim)
	}
	return Resolution{Source: queuetree.None, Action: a, Method: r.Method()}
}

// PreemptByName is [Resolver.Preempt] for a queue given by name. For a name
// not in the tree it returns the default resolution and an error wrapping
// [ErrUnknownQueue], so a caller with a stale snapshot still has a usable
// answer. O(1) plus one map lookup.
func (r *Resolver) PreemptByName(victimQueue string) (Resolution, error) {
	return r.ResolveByName(ActionPreempt, "", victimQueue)
}

// ReclaimByName is [Resolver.Reclaim] for queues given by name. An unknown
// name yields an error wrapping [ErrUnknownQueue] (both names are checked)
// and the resolution Reclaim gives for queuetree.None in its place: the
// default, except that with MethodQueue an unknown reclaimer does not
// matter. Cost as Reclaim plus two map lookups.
func (r *Resolver) ReclaimByName(reclaimerQueue, victimQueue string) (Resolution, error) {
	return r.ResolveByName(ActionReclaim, reclaimerQueue, victimQueue)
}

// ResolveByName is [Resolver.Resolve] for queues given by name, with the
// unknown-name handling of [Resolver.ReclaimByName]. For ActionPreempt the
// preemptor name is ignored. A nil Resolver knows no tree and answers a
// zero duration from the default with a nil error.
func (r *Resolver) ResolveByName(a Action, preemptorQueue, victimQueue string) (Resolution, error) {
	if r == nil {
		return r.Resolve(a, queuetree.None, queuetree.None), nil
	}
	var errs []error
	victim, ok := r.lookup(victimQueue)
	if !ok {
		errs = append(errs, fmt.Errorf("%w %q (victim); the default applies", ErrUnknownQueue, victimQueue))
	}
	preemptor := queuetree.None
	if a != ActionPreempt {
		if preemptor, ok = r.lookup(preemptorQueue); !ok {
			consequence := "the default applies"
			if r.method == MethodQueue {
				consequence = "not needed by the queue method"
			}
			errs = append(errs, fmt.Errorf("%w %q (reclaimer); %s", ErrUnknownQueue, preemptorQueue, consequence))
		}
	}
	return r.Resolve(a, preemptor, victim), errors.Join(errs...)
}

// lookup returns name's ID; None and false for a name not in the tree.
func (r *Resolver) lookup(name string) (queuetree.ID, bool) {
	if name == "" {
		return queuetree.None, false
	}
	id, ok := r.tree.Lookup(name)
	if !ok {
		return queuetree.None, false
	}
	return id, true
}
