package tenure

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// errNilPolicy is the error of UpdateQueues and UpdateQueuesTolerant
// called on a nil or zero Policy.
var errNilPolicy = errors.New("tenure: UpdateQueues of a nil or zero Policy: build one with New or NewTolerant")

// UpdateQueues returns the Policy [New] would build from p's Config with
// Queues replaced by queues, built from p's parts: the tree with
// queuetree.Update and the resolver with runtime.UpdateResolver, so that
// a scheduler that rebuilds its view of the queues every scheduling
// session (KAI-Scheduler's framework.Session) pays for what changed only.
//
// When queues describes p's queues with the same min-runtime fields (in
// any order), it returns p itself; for a p built from a list with
// problems (its tree or settings repaired), only when the tree and the
// resolver can be reused as they are. Otherwise it returns a new Policy
// that shares with p every part that does not hold the tree or the
// resolver (the nominator, the requeuing strategy, the clock, the
// Config's callbacks) and has its own tree, resolver, min-runtime filter,
// scenario validator and requeue engine. On a list with a problem it
// returns nil and exactly the error New reports for those queues (the
// other parts of the Config were accepted when p was built); a nil or
// zero p gives nil and an error. p is never changed.
//
// Queue IDs belong to one tree: a new Policy numbers its queues afresh (a
// preorder, siblings in name order), so an ID that p issued may name
// another queue there. Look
// the jobs' queues up again with the new Policy's [Policy.QueueID]
// whenever UpdateQueues returns a Policy other than p.
//
// Concurrency: the new Policy shares no scratch state with p (it has its
// own engine and validator), so p and the new Policy may each run a
// [Cycle] at the same time, one each, provided the callbacks of the Config
// (the observer, the engine's filters, …) are safe for concurrent use.
// UpdateQueues only reads p, and may run while p runs a Cycle.
//
// Cost: an unchanged list (in any order) costs O(n) for n queues: one
// name lookup and three string comparisons per queue against the list p
// was built from, a bit set of one bit per queue, no parse and no sort (a
// Policy built from a list with problems, by NewTolerant or
// UpdateQueuesTolerant, skips this check: its list is checked as a
// changed one). A changed list costs queuetree.Update's check and
// incremental rebuild, one parse per distinct min-runtime string,
// runtime.UpdateResolver (a patch or an O(n) rebuild), one more name
// lookup per queue that sets a min-runtime to record the list, and
// O(len(Engine.Filters)) for the new engine; a list with a problem costs
// New's O(n log n) build of the tree.
func (p *Policy) UpdateQueues(queues []Queue) (*Policy, error) {
	if p == nil || p.tree == nil {
		return nil, errNilPolicy
	}
	if p.sameQueues(queues) {
		return p, nil
	}
	tq, fields := queueInput(queues)
	tree, _, err := queuetree.Update(p.tree, tq)
	errs := configErrors("queues", err)
	rcfg, ok := p.parseCleanQueues(fields, tree != nil)
	if !ok {
		rcfg, err = parseQueues(p.base, fields)
		errs = append(errs, configErrors("queues", err)...)
	}
	var resolver *runtime.Resolver
	if tree != nil && err == nil {
		resolver, _, err = runtime.UpdateResolver(p.resolver, tree, rcfg)
		errs = append(errs, configErrors("queues", err)...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	np, err := p.with(tree, resolver)
	if np != nil && np != p {
		np.recordQueues(queues)
	}
	return np, err
}

// UpdateQueuesTolerant is [Policy.UpdateQueues] for a scheduler that must
// keep running on whatever queue list it has: it never returns a nil
// Policy for a p from New or NewTolerant (a nil or zero p gives nil and
// one error). It repairs the list as queuetree.UpdateTolerant does (an
// empty name or a later duplicate dropped, an orphan made top-level, a
// cycle broken) and the min-runtime settings as
// runtime.UpdateResolverTolerant does (a setting for a dropped entry
// ignored, the first of repeated entries used); a min-runtime string that
// does not parse ("-5m" included) is ignored, so that queue inherits from
// its parent as if the field were unset: more protective than
// KAI-Scheduler's own reading, in which a negative value never protects.
// It returns every problem repaired, one [*ConfigError] each (nil when there is
// none), and then the same Policy UpdateQueues returns. It returns p itself when the tree and the resolver are reused:
// queues describes p's queues and settings, or is, entry for entry, the
// list with problems p was built from (whose problems are then reported
// again). Concurrency and cost as UpdateQueues; a list with problems
// costs queuetree.NewTolerant's build unless reused.
func (p *Policy) UpdateQueuesTolerant(queues []Queue) (*Policy, []error) {
	if p == nil || p.tree == nil {
		return nil, []error{errNilPolicy}
	}
	if p.sameQueues(queues) {
		return p, nil
	}
	tq, fields := queueInput(queues)
	tree, _, problems := queuetree.UpdateTolerant(p.tree, tq)
	rcfg, ok := p.parseCleanQueues(fields, len(problems) == 0)
	if !ok {
		var err error
		rcfg, err = parseQueues(p.base, fields)
		problems = append(problems, unjoin(err)...)
	}
	resolver, _, rp := runtime.UpdateResolverTolerant(p.resolver, tree, rcfg)
	problems = append(problems, rp...)
	if resolver == nil { // unreachable: UpdateTolerant returns a built tree
		return p, append(problems, errors.New("tenure: UpdateQueuesTolerant: no resolver could be built; the Policy is unchanged"))
	}
	np, err := p.with(tree, resolver)
	if err != nil { // unreachable: New accepted the engine's settings
		return p, append(problems, err)
	}
	if len(problems) > 0 {
		return np, queueErrors(problems)
	}
	if np != p {
		np.recordQueues(queues)
	}
	return np, nil
}

// NewTolerant is [New] for a scheduler that must start on whatever queue
// list it has: it repairs the queues and their min-runtime settings as
// [Policy.UpdateQueuesTolerant] does and returns the problems it repaired
// with a usable Policy. Every other part of cfg (the plugin arguments
// included) must be valid: when one is not, it returns a nil Policy and
// every problem: the queues' ones (as they would have been repaired)
// first, then the others as New reports them. On a clean Config it returns
// a Policy equal to New's and no problems. Cost as New.
func NewTolerant(cfg Config) (*Policy, []error) {
	rest := cfg
	rest.Queues = nil
	p, err := rest.build()
	if err != nil {
		base, _ := runtime.ParseConfig(cfg.MinRuntimeArgs, nil)
		return nil, append(tolerantQueues(base, cfg.Queues), unjoin(err)...)
	}
	return p.UpdateQueuesTolerant(cfg.Queues)
}

// tolerantQueues returns the problems NewTolerant repairs in queues,
// under the defaults and method of base.
func tolerantQueues(base runtime.Config, queues []Queue) []error {
	tq, fields := queueInput(queues)
	tree, problems := queuetree.NewTolerant(tq)
	rcfg, err := parseQueues(base, fields)
	problems = append(problems, unjoin(err)...)
	_, rp := runtime.NewResolverTolerant(tree, rcfg)
	return queueErrors(append(problems, rp...))
}

// with returns p when tree and resolver are p's, else a copy of p with
// them and its own filter, validator and engine.
func (p *Policy) with(tree *queuetree.Tree, resolver *runtime.Resolver) (*Policy, error) {
	if tree == p.tree && resolver == p.resolver {
		return p, nil
	}
	np := &Policy{cfg: p.cfg, base: p.base, tree: tree, resolver: resolver, nominator: p.nominator,
		requeuing: p.requeuing, clock: p.clock, preemption: p.preemption, protection: p.protection,
		delay: p.delay, budget: p.budget}
	if err := np.wire(); err != nil {
		return nil, err
	}
	return np, nil
}

// queueStrings is one queue's min-runtime fields as its Queue gave them.
type queueStrings struct{ preempt, reclaim string }

// recordQueues records, by ID, the min-runtime strings of queues, the list
// p's tree and resolver were built from without a problem, for
// sameQueues. O(n): one name lookup per queue that sets a min-runtime
// (the others keep the zero entry, both strings empty); 4 bytes per queue
// plus the strings of those that set one.
func (p *Policy) recordQueues(queues []Queue) {
	p.given = make([]int32, p.tree.Len()+1)
	n := 0
	for i := range queues {
		if queues[i].PreemptMinRuntime != "" || queues[i].ReclaimMinRuntime != "" {
			n++
		}
	}
	p.givenStrings = make([]queueStrings, 0, n)
	for i := range queues {
		q := &queues[i]
		if q.PreemptMinRuntime == "" && q.ReclaimMinRuntime == "" {
			continue
		}
		id, _ := p.tree.Lookup(q.Name)
		p.givenStrings = append(p.givenStrings, queueStrings{q.PreemptMinRuntime, q.ReclaimMinRuntime})
		p.given[id] = int32(len(p.givenStrings))
	}
}

// givenAt returns the recorded min-runtime strings of queue id.
func (p *Policy) givenAt(id queuetree.ID) queueStrings {
	if k := p.given[id]; k > 0 {
		return p.givenStrings[k-1]
	}
	return queueStrings{}
}

// sameQueues reports whether queues is, in any order, the list p was
// built from without a problem: as many queues as p's tree has, each
// name in the tree once, with the same parent and the same min-runtime
// strings. Then New would build p's very tree and resolver from it. O(n):
// one name lookup per queue, a bit set of one bit per queue, no parse.
func (p *Policy) sameQueues(queues []Queue) bool {
	if p.given == nil || len(queues) != p.tree.Len()-1 {
		return false
	}
	seen := make([]uint64, len(p.given)/64+1)
	for i := range queues {
		q := &queues[i]
		id, ok := p.tree.Lookup(q.Name)
		if !ok || seen[id/64]&(1<<(id%64)) != 0 || p.tree.Name(p.tree.Parent(id)) != q.Parent ||
			p.givenAt(id) != (queueStrings{q.PreemptMinRuntime, q.ReclaimMinRuntime}) {
			return false
		}
		seen[id/64] |= 1 << (id % 64)
	}
	return true
}

// queueInput converts queues to the tree's and the resolver's input, with
// the same indices.
func queueInput(queues []Queue) ([]queuetree.Queue, []runtime.QueueFields) {
	tq := make([]queuetree.Queue, len(queues))
	fields := make([]runtime.QueueFields, len(queues))
	for i, q := range queues {
		tq[i] = queuetree.Queue{Name: q.Name, Parent: q.Parent}
		fields[i] = runtime.QueueFields{Name: q.Name, PreemptMinRuntime: q.PreemptMinRuntime, ReclaimMinRuntime: q.ReclaimMinRuntime}
	}
	return tq, fields
}

// parseQueues parses the queues' min-runtime fields into the resolver's
// Config under base's defaults and method, with ParseConfig's error.
func parseQueues(base runtime.Config, fields []runtime.QueueFields) (runtime.Config, error) {
	c, err := runtime.ParseConfig(nil, fields)
	c.DefaultPreempt, c.DefaultReclaim, c.Method = base.DefaultPreempt, base.DefaultReclaim, base.Method
	return c, err
}

// parseCleanQueues is parseQueues for a list whose tree was built without
// a problem (clean: no empty name, no name twice), so that only the
// durations can be wrong: each distinct string is parsed once and the
// settings share one array of durations. It reports false, and parses
// nothing more, at the first string that does not parse, or when the list
// is not clean; parseQueues then reports the problems.
func (p *Policy) parseCleanQueues(fields []runtime.QueueFields, clean bool) (runtime.Config, bool) {
	c := runtime.Config{DefaultPreempt: p.base.DefaultPreempt, DefaultReclaim: p.base.DefaultReclaim, Method: p.base.Method}
	if !clean {
		return c, false
	}
	n := 0
	for i := range fields {
		if fields[i].PreemptMinRuntime != "" || fields[i].ReclaimMinRuntime != "" {
			n++
		}
	}
	c.Queues = make([]runtime.QueueSetting, 0, n)
	durations := make([]time.Duration, 0, 2*n)
	parsed := map[string]time.Duration{}
	parse := func(s string) (*time.Duration, bool) {
		if s == "" {
			return nil, true
		}
		d, ok := parsed[s]
		if !ok {
			var err error
			if d, err = runtime.ParseDuration(s); err != nil {
				return nil, false
			}
			parsed[s] = d
		}
		durations = append(durations, d) // never grows: 2 per setting
		return &durations[len(durations)-1], true
	}
	for i := range fields {
		f := &fields[i]
		if f.PreemptMinRuntime == "" && f.ReclaimMinRuntime == "" {
			continue
		}
		s := runtime.QueueSetting{Queue: f.Name}
		var ok1, ok2 bool
		s.Preempt, ok1 = parse(f.PreemptMinRuntime)
		s.Reclaim, ok2 = parse(f.ReclaimMinRuntime)
		if !ok1 || !ok2 {
			return c, false
		}
		c.Queues = append(c.Queues, s)
	}
	return c, true
}

// unjoin splits an errors.Join error, and the joined errors inside it,
// into one error each; nil for nil.
func unjoin(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		if err == nil {
			return nil
		}
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, unjoin(e)...)
	}
	return out
}
