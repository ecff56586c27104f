package runtime

import (
	"errors"
	"fmt"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Resolver answers "which min-runtime protects this victim from this
// eviction?" for one queue tree and one [Config].
//
// NewResolver precomputes, for every queue, the preempt and the reclaim
// [Resolution] it inherits (duration and source queue), in one pass in
// increasing ID order (queuetree IDs are preorder, so a parent is always
// done before its children). Queries then cost:
//
//   - [Resolver.Preempt], and [Resolver.Reclaim] with MethodQueue: O(1),
//     one array read;
//   - [Resolver.Reclaim] with MethodLCA: finding the child of the lowest
//     common ancestor on the victim's side ([queuetree.Tree.ChildOfLCA]) is
//     O(1) when the two queues are under different top-level queues, else
//     O(log depth) (one climb from the victim over skew-binary jump
//     pointers); then one array read;
//   - the ...ByName variants: plus one map lookup per name.
//
// None of them allocates (the Resolution's SourceName is a stored string),
// and there is no per-pair cache: memory is O(queues) whatever the number
// of pairs asked.
//
// A Resolver is immutable and safe for concurrent use. A nil *Resolver and
// the zero Resolver are usable and resolve everything to a zero duration
// from the default.
// Queue IDs the tree did not issue (queuetree.None included) resolve to the
// default, never panic.
type Resolver struct {
	tree   *queuetree.Tree
	method Method
	// preempt[id] and reclaim[id] are the resolutions inherited by queue
	// id; index Root holds the default's.
	preempt []Resolution
	reclaim []Resolution
}

// NewResolver validates c against t and precomputes the resolver. The error
// joins every problem found (see [Config.Validate]) plus one per configured
// queue name that t does not have, in input order, and a nil or zero tree
// (one not built by [queuetree.New] or [queuetree.NewTolerant]).
//
// Cost: O(n + q) time and O(n) memory for n queues and q configured queues.
func NewResolver(t *queuetree.Tree, c Config) (*Resolver, error) {
	var errs []error
	n := t.Len() // 0 for a nil or zero Tree, else at least 1 (Root)
	switch {
	case t == nil:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree, got nil"))
	case n == 0:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree built by queuetree.New or NewTolerant, got the zero Tree"))
	}
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	if n == 0 {
		return nil, errors.Join(errs...)
	}
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
		preempt: make([]Resolution, n),
		reclaim: make([]Resolution, n),
	}
	r.preempt[queuetree.Root] = Resolution{Duration: c.DefaultPreempt, Source: queuetree.None, Action: ActionPreempt, Method: MethodQueue}
	r.reclaim[queuetree.Root] = Resolution{Duration: c.DefaultReclaim, Source: queuetree.None, Action: ActionReclaim, Method: c.Method}
	for id := queuetree.ID(1); int(id) < n; id++ {
		p := t.Parent(id) // < id: queuetree IDs are a preorder
		r.preempt[id] = r.preempt[p]
		r.reclaim[id] = r.reclaim[p]
		s := settings[id]
		if s == nil {
			continue
		}
		if s.Preempt != nil {
			r.preempt[id].Duration, r.preempt[id].Source, r.preempt[id].SourceName = *s.Preempt, id, t.Name(id)
		}
		if s.Reclaim != nil {
			r.reclaim[id].Duration, r.reclaim[id].Source, r.reclaim[id].SourceName = *s.Reclaim, id, t.Name(id)
		}
	}
	return r, nil
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

// Preempt resolves the min-runtime protecting a job in queue victim from
// in-queue preemption: the Preempt setting of the victim's queue or of its
// nearest ancestor that sets one, else the default. O(1), no allocation.
func (r *Resolver) Preempt(victim queuetree.ID) Resolution {
	if !r.built() {
		return Resolution{Source: queuetree.None, Action: ActionPreempt, Method: MethodQueue}
	}
	if uint(victim) >= uint(len(r.preempt)) {
		victim = queuetree.Root
	}
	return r.preempt[victim]
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
// reclaimer, resolves to the default. O(log depth) with MethodLCA (O(1)
// across top-level queues), O(1) with MethodQueue; no allocation.
func (r *Resolver) Reclaim(reclaimer, victim queuetree.ID) Resolution {
	// Small enough for the compiler to inline (an inlined query costs about
	// half as much); the zero Resolver is handled out of line.
	if r == nil {
		return Resolution{Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA}
	}
	return *r.reclaimEntry(reclaimer, victim)
}

// unbuiltReclaim is what the zero Resolver answers for a reclaim. Read only.
var unbuiltReclaim = Resolution{Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA}

// reclaimEntry returns the precomputed resolution that applies: the one
// inherited by c for MethodLCA, by the victim for MethodQueue, the
// default's (Root's) for an invalid ID, and unbuiltReclaim for the zero
// Resolver.
func (r *Resolver) reclaimEntry(reclaimer, victim queuetree.ID) *Resolution {
	n := uint(len(r.reclaim))
	switch {
	case n == 0:
		return &unbuiltReclaim
	case uint(victim) >= n:
		return &r.reclaim[queuetree.Root]
	case r.method == MethodQueue:
		return &r.reclaim[victim]
	case uint(reclaimer) >= n:
		return &r.reclaim[queuetree.Root]
	}
	return &r.reclaim[r.tree.ChildOfLCA(reclaimer, victim)]
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
// [*queuetree.UnknownQueueError], so a caller with a stale snapshot still has a usable
// answer. O(1) plus one map lookup.
func (r *Resolver) PreemptByName(victimQueue string) (Resolution, error) {
	return r.ResolveByName(ActionPreempt, "", victimQueue)
}

// ReclaimByName is [Resolver.Reclaim] for queues given by name. An unknown
// name yields an error wrapping [*queuetree.UnknownQueueError] (both names are checked)
// and the resolution Reclaim gives for queuetree.None in its place: the
// default, except that with MethodQueue an unknown reclaimer does not
// matter. Cost as Reclaim plus two map lookups.
func (r *Resolver) ReclaimByName(reclaimerQueue, victimQueue string) (Resolution, error) {
	return r.ResolveByName(ActionReclaim, reclaimerQueue, victimQueue)
}

// ResolveByName is [Resolver.Resolve] for queues given by name, with the
// unknown-name handling of [Resolver.ReclaimByName]. For ActionPreempt the
// preemptor name is ignored. A nil or zero Resolver knows no tree and
// answers a zero duration from the default with a nil error.
func (r *Resolver) ResolveByName(a Action, preemptorQueue, victimQueue string) (Resolution, error) {
	if !r.built() {
		return r.Resolve(a, queuetree.None, queuetree.None), nil
	}
	var errs []error
	victim, ok := r.tree.Lookup(victimQueue)
	if !ok {
		errs = append(errs, fmt.Errorf("runtime: %w (victim); the default applies", &queuetree.UnknownQueueError{Queue: victimQueue}))
	}
	preemptor := queuetree.None
	if a != ActionPreempt {
		if preemptor, ok = r.tree.Lookup(preemptorQueue); !ok {
			consequence := "the default applies"
			if r.method == MethodQueue {
				consequence = "not needed by the queue method"
			}
			errs = append(errs, fmt.Errorf("runtime: %w (reclaimer); %s", &queuetree.UnknownQueueError{Queue: preemptorQueue}, consequence))
		}
	}
	return r.Resolve(a, preemptor, victim), errors.Join(errs...)
}

// built reports whether r came from NewResolver; a nil or zero Resolver did
// not, has no arrays to read, and resolves everything to the zero default.
func (r *Resolver) built() bool { return r != nil && r.tree != nil }
