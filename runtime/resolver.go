package runtime

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Resolver answers "which min-runtime protects this victim from this
// eviction?" for one queue tree and one [Config].
//
// NewResolver precomputes, for every queue, which setting it inherits for
// preempt and for reclaim (an index into a table of one Resolution per
// configured queue, plus the default's), in one pass in increasing ID
// order (queuetree IDs are preorder, so a parent is always done before
// its children). The per-queue indexes hold no pointers; only the tables,
// one entry per setting, do. Queries then cost:
//
//   - [Resolver.Preempt], and [Resolver.Reclaim] with MethodQueue: O(1),
//     one index read and one table read;
//   - [Resolver.Reclaim] with MethodLCA: finding the child of the lowest
//     common ancestor on the victim's side ([queuetree.Tree.ChildOfLCA]) is
//     O(1) when the two queues are under different top-level queues, else
//     O(log depth) (one climb from the victim over skew-binary jump
//     pointers); then one index read and one table read;
//   - the ...ByName variants: plus one map lookup per name.
//
// None of them allocates (the Resolution's SourceName is the tree's stored
// name), and there is no per-pair cache: memory is O(queues + settings)
// whatever the number of pairs asked. The reclaim method may be chosen per query
// ([Resolver.ReclaimWithMethod]) or per view ([Resolver.WithMethod])
// without a second build.
//
// A Resolver is immutable and safe for concurrent use. A nil *Resolver and
// the zero Resolver are usable and resolve everything to a zero duration
// from the default.
// Queue IDs the tree did not issue (queuetree.None included) resolve to the
// default here, never panic; the decisions of package eligibility check
// the IDs first and fail closed on an unset or unknown queue.
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
	// What the resolver was built from, for [UpdateResolver]: the
	// defaults as given, the method as given, which[id] (the k above of
	// queue id's own entry of Config.Queues, 0 for none), the entries as
	// given by k, and how many queues have one.
	defaults [2]time.Duration
	given    Method
	which    []int32
	owns     []ownSetting
	owners   int
	clean    bool // built without any problem
	// negOnly: built with problems that are all negative queue durations
	// (every entry of the Config linked to its queue, so the k order is
	// the entries' order), which ApplyResolver can still patch; negatives
	// counts the linked own settings with a negative duration (only a hint
	// for ApplyResolver's recordProblems, which recounts when it is not 0:
	// an over-count costs a scan, an under-count would hide a problem).
	negOnly   bool
	negatives int
	// For a resolver built with problems: its queue settings as given
	// (values, not pointers) and the problems, for
	// [UpdateResolverTolerant].
	repairedQueues []ownNamed
	repairedErrs   []error
}

// ownNamed is one entry of Config.Queues as given, by value.
type ownNamed struct {
	queue string
	own   ownSetting
}

// ownList returns qs by value.
func ownList(qs []QueueSetting) []ownNamed {
	out := make([]ownNamed, len(qs))
	for i := range qs {
		out[i] = ownNamed{qs[i].Queue, own(&qs[i])}
	}
	return out
}

// ownSetting is a queue's own entry of Config.Queues.
type ownSetting struct {
	preempt, reclaim       time.Duration
	hasPreempt, hasReclaim bool
	set                    bool
}

// NewResolver validates c against t and precomputes the resolver. The error
// joins every problem found (see [Config.Validate]) plus one per configured
// queue name that t does not have, in input order, and a nil or zero tree
// (one not built by [queuetree.New] or [queuetree.NewTolerant]).
// [NewResolverTolerant] reports the same problems and builds anyway.
//
// Cost: O(n + q) time and memory for n queues and q configured queues.
func NewResolver(t *queuetree.Tree, c Config) (*Resolver, error) {
	r, errs := NewResolverTolerant(t, c)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return r, nil
}

// NewResolverTolerant is [NewResolver] for a scheduler that must keep
// running on whatever settings it has, as [queuetree.NewTolerant] is for
// the tree: it returns every problem NewResolver would report, one error
// each (nil when
// there is none, and then the same resolver NewResolver builds) and a
// resolver built with these repairs:
//
//   - a negative default counts as 0, as KAI-Scheduler's min-runtime plugin
//     does (it logs the error and uses 0s);
//   - a negative queue setting counts as an explicit 0: it stops
//     inheritance and never protects. KAI-Scheduler's resolver
//     (pkg/scheduler/plugins/minruntime/resolver.go) keeps such a value,
//     which also stops its walk up the tree, and the plugin then protects a
//     job only while now is before start plus that negative value: never,
//     for a job that started in the past. (Its design document's "-1:
//     never preemptible" is not what the plugin does.);
//   - an invalid Method counts as MethodLCA, the default;
//   - an entry with an empty name, or for a queue t does not have, is
//     ignored; of entries listed twice, the first is used.
//
// Only a nil or zero tree leaves nothing to build: the resolver is then nil
// (which resolves everything to a zero duration). Cost as NewResolver.
func NewResolverTolerant(t *queuetree.Tree, c Config) (*Resolver, []error) {
	if r := newClean(t, c); r != nil {
		return r, nil
	}
	var errs []error
	n := t.Len() // 0 for a nil or zero Tree, else at least 1 (Root)
	switch {
	case t == nil:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree, got nil"))
	case n == 0:
		errs = append(errs, errors.New("runtime: NewResolver needs a queue tree built by queuetree.New or NewTolerant, got the zero Tree"))
	}
	if err := c.Validate(); err != nil {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, joined.Unwrap()...) // one per problem
		} else {
			errs = append(errs, err)
		}
	}
	if n == 0 {
		return nil, errs
	}
	r := newResolver(t, c)
	errs = r.settingsByID(c.Queues, errs)
	r.inherit()
	r.clean = len(errs) == 0
	if !r.clean {
		r.repairedQueues, r.repairedErrs = ownList(c.Queues), slices.Clone(errs)
		r.negOnly = c.DefaultPreempt >= 0 && c.DefaultReclaim >= 0 && c.Method <= MethodQueue && r.owners == len(c.Queues)
	}
	return r, errs
}

// newResolver allocates a resolver for t (built) and c, with its
// per-queue arrays in one pointer-free allocation and its tables in
// another, the defaults' entries filled.
func newResolver(t *queuetree.Tree, c Config) *Resolver {
	n, q := t.Len()+1, len(c.Queues)+1
	ints := make([]int32, 3*n)
	tabs := make([]Resolution, 3*q)
	r := &Resolver{tree: t, method: c.Method, defaults: [2]time.Duration{c.DefaultPreempt, c.DefaultReclaim},
		given: c.Method, which: ints[:n:n], preIdx: ints[n : 2*n : 2*n], recIdx: ints[2*n:],
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

// newClean is NewResolverTolerant for the common case, a tree built by
// queuetree and a Config without any problem, in one pass over the
// settings (one name lookup each, which also finds a repeated name)
// instead of Config.Validate's map of names. It returns nil when it meets
// a problem; the caller then takes the full path, which reports every
// problem. On a clean Config both paths build the same resolver.
func newClean(t *queuetree.Tree, c Config) *Resolver {
	if t.Len() == 0 || c.DefaultPreempt < 0 || c.DefaultReclaim < 0 || c.Method > MethodQueue {
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
	r.clean = true
	return r
}

// setOwn records that queue id's own setting is s, the entry
// Config.Queues[k-1], and fills its table entries (negative values read
// as 0; an unset field's entries are never read).
func (r *Resolver) setOwn(id queuetree.ID, k int32, s *QueueSetting) {
	o := own(s)
	r.which[id], r.owns[k] = k, o
	r.owners++
	if o.negative() {
		r.negatives++
	}
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
// not have. Entries with an empty name are skipped (Config.Validate
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
	o := ownSetting{set: true}
	if s.Preempt != nil {
		o.preempt, o.hasPreempt = *s.Preempt, true
	}
	if s.Reclaim != nil {
		o.reclaim, o.hasReclaim = *s.Reclaim, true
	}
	return o
}

// UpdateResolver returns a resolver for t and c, reusing prev when it can:
// when prev was built without a problem for this very tree (the same
// *Tree, as [queuetree.Update] returns for an unchanged queue list) from a
// Config with the same defaults, the same method and the same queue
// settings in any order, it returns prev itself and reused true; otherwise
// it returns the resolver [NewResolver](t, c) returns, and its error. A
// nil prev is never reused. It is
// strict, as NewResolver is: settings with a problem are an error and a nil
// resolver, even when prev was built from them by [NewResolverTolerant]; a
// scheduler that builds tolerantly updates with [UpdateResolverTolerant].
//
// The comparison is exact: each entry of c.Queues is looked up in t and
// compared with the setting prev stored for that queue, and the number of
// entries with the number prev used, so any added, removed, changed or
// repeated setting means a rebuild. Cost when reused: O(q) for q queue
// settings (one name lookup each) and a bit set of one bit per queue.
//
// When t was made from prev's very tree by one [queuetree.Apply] or
// [queuetree.Update] call that added one queue, or removed or moved one
// without children ([queuetree.Tree.ShiftsFrom]; a chain of such calls
// between two updates is not followed), and the settings are the same,
// prev is patched the same way instead of rebuilt:
// the same O(q) comparison, then copies of its arrays with one entry
// inserted or cut out, O(n + q) with no name looked up in t. Else
// NewResolver's cost: O(q) name lookups and one pointer-free pass over
// the queues, for a change of one setting as for a new Config.
func UpdateResolver(prev *Resolver, t *queuetree.Tree, c Config) (r *Resolver, reused bool, err error) {
	if prev.sameInput(t, c) {
		return prev, true, nil
	}
	if r := prev.followShifts(t, c); r != nil {
		return r, false, nil
	}
	r, err = NewResolver(t, c)
	return r, false, err
}

// sameInput reports whether r was built cleanly from t and a Config equal
// to c up to the order of c.Queues.
func (r *Resolver) sameInput(t *queuetree.Tree, c Config) bool {
	if r == nil || !r.clean || r.tree != t || r.given != c.Method ||
		r.defaults != [2]time.Duration{c.DefaultPreempt, c.DefaultReclaim} || len(c.Queues) != r.owners {
		return false
	}
	// As many entries as prev's queues with a setting, each equal to its
	// queue's and each for a different queue (a repeated name would leave
	// one of them unmatched while the count still agrees). The bit set of
	// IDs seen is the one queuetree's Update keeps for its own check:
	// six lines, not worth an exported type.
	var small [4]uint64
	seen := small[:]
	if words := len(r.which)/64 + 1; words > len(small) {
		seen = make([]uint64, words)
	}
	for i := range c.Queues {
		id, ok := t.Lookup(c.Queues[i].Queue)
		if !ok || r.which[id] == 0 || r.owns[r.which[id]] != own(&c.Queues[i]) {
			return false
		}
		w, bit := id/64, uint64(1)<<(id%64)
		if seen[w]&bit != 0 {
			return false
		}
		seen[w] |= bit
	}
	return true
}

// UpdateResolverTolerant is [UpdateResolver] for a scheduler that builds
// with [NewResolverTolerant] (and its tree with
// [queuetree.UpdateTolerant]): it returns prev itself and reused true when
// UpdateResolver would, with no problems, or when prev was built with
// problems for this very tree from a Config with the same defaults, method
// and queue settings, entry for entry in the same order (the first of
// repeated entries wins, so the order matters); the problems
// NewResolverTolerant reported are then returned again. Otherwise it
// returns what NewResolverTolerant(t, c) returns, which is nil only for a
// nil or zero tree, and then with an error; a prev built without problems
// follows a one-queue patch of its tree as in UpdateResolver. A nil prev
// is never reused.
//
// Cost when reused: O(q) for q queue settings; after a one-queue patch,
// UpdateResolver's; else NewResolverTolerant's.
func UpdateResolverTolerant(prev *Resolver, t *queuetree.Tree, c Config) (r *Resolver, reused bool, problems []error) {
	if prev.sameInput(t, c) {
		return prev, true, nil
	}
	if prev.sameRepairedInput(t, c) {
		return prev, true, slices.Clone(prev.repairedErrs)
	}
	if r := prev.followShifts(t, c); r != nil {
		return r, false, nil
	}
	r, problems = NewResolverTolerant(t, c)
	return r, false, problems
}

// sameRepairedInput reports whether r was built with problems from t and
// a Config equal to c, queue settings in the same order.
func (r *Resolver) sameRepairedInput(t *queuetree.Tree, c Config) bool {
	if r == nil || r.clean || r.tree != t || r.given != c.Method ||
		r.defaults != [2]time.Duration{c.DefaultPreempt, c.DefaultReclaim} || len(c.Queues) != len(r.repairedQueues) {
		return false
	}
	for i := range c.Queues {
		if r.repairedQueues[i] != (ownNamed{c.Queues[i].Queue, own(&c.Queues[i])}) {
			return false
		}
	}
	return true
}

// WithMethod returns a resolver that shares r's tree and precomputed
// settings and resolves reclaims with method m: O(1), one small
// allocation, no rebuild. KAI-Scheduler passes the method with every
// reclaim query; a scheduler that serves several method settings from one
// queue snapshot builds once and takes one view per method. An invalid m
// counts as MethodLCA. WithMethod of a nil Resolver is nil.
func (r *Resolver) WithMethod(m Method) *Resolver {
	if r == nil {
		return nil
	}
	if m > MethodQueue {
		m = MethodLCA
	}
	v := *r
	v.method, v.given = m, m // as if built with m: UpdateResolver compares it
	return &v
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
	if uint(victim-queuetree.Root) >= uint(len(r.preIdx)-1) {
		victim = queuetree.Root
	}
	return r.preTab[r.preIdx[victim]]
}

// Reclaim resolves the min-runtime protecting a job in queue victim from a
// reclaim by a job in queue reclaimer, with the resolver's method.
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
	return *r.reclaimEntry(r.method, reclaimer, victim)
}

// ReclaimWithMethod is [Resolver.Reclaim] with method m for this query
// only, whatever the resolver's configured method: KAI-Scheduler's
// resolver takes the method with every call. An invalid m counts as
// MethodLCA. Cost as Reclaim.
func (r *Resolver) ReclaimWithMethod(m Method, reclaimer, victim queuetree.ID) Resolution {
	if m > MethodQueue {
		m = MethodLCA
	}
	if r == nil {
		return Resolution{Source: queuetree.None, Action: ActionReclaim, Method: m}
	}
	return *r.reclaimEntry(m, reclaimer, victim)
}

// unbuiltReclaim is what the zero Resolver answers for a reclaim, by
// method. Read only.
var unbuiltReclaim = [2]Resolution{
	{Source: queuetree.None, Action: ActionReclaim, Method: MethodLCA},
	{Source: queuetree.None, Action: ActionReclaim, Method: MethodQueue},
}

// reclaimEntry returns the precomputed resolution that applies under
// method m (a valid Method): the one inherited by c for MethodLCA, by the
// victim for MethodQueue, the default's (Root's) for an ID the tree did
// not issue, and unbuiltReclaim for the zero Resolver. Valid IDs are
// Root..n-1, so one unsigned comparison of id-Root against n-1 tests each.
func (r *Resolver) reclaimEntry(m Method, reclaimer, victim queuetree.ID) *Resolution {
	idx, tab := r.recIdx, r.recTab[m&1]
	n := uint(len(idx))
	switch {
	case n == 0:
		return &unbuiltReclaim[m&1]
	case uint(victim-queuetree.Root) >= n-1:
		return &tab[0]
	case m == MethodQueue:
		return &tab[idx[victim]]
	case uint(reclaimer-queuetree.Root) >= n-1:
		return &tab[0]
	}
	return &tab[idx[r.tree.ChildOfLCA(reclaimer, victim)]]
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
