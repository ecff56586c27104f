package tenure

import (
	"errors"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// UpdateQueues returns the Policy [New] would build from p's Config with
// Queues replaced by queues, built from p's parts: the tree with
// queuetree.Update and the resolver with runtime.UpdateResolver, so that
// a scheduler that rebuilds its view of the queues every scheduling
// session (KAI-Scheduler's framework.Session) pays for what changed only.
// When queues describes p's queues with the same min-runtime fields (in
// any order), it returns p itself. Otherwise it returns a new Policy that
// shares every part that does not hold the tree or the resolver with p
// (the nominator, the requeuing strategy, the clock, the Config's
// callbacks) and has its own tree, resolver, min-runtime filter, scenario
// validator and requeue engine. On a list with a problem it returns nil
// and exactly the error New reports for those queues (the other parts of
// the Config were accepted when p was built). p is never changed.
//
// Concurrency: the new Policy shares no scratch state with p (it has its
// own engine and validator), so p and the new Policy may each run a
// [Cycle] at the same time, one each, provided the callbacks of the Config
// (the observer, the engine's filters, …) are safe for concurrent use.
// UpdateQueues only reads p, and may run while p runs a Cycle.
//
// Cost: an unchanged list costs O(n) for n queues (queuetree.Update's
// check, the parse of the min-runtime strings of the queues that set one,
// and runtime.UpdateResolver's comparison), no sort; a changed list adds
// the incremental rebuild of the tree and the resolver (see
// queuetree.Update and runtime.UpdateResolver) and O(len(Engine.Filters))
// for the new engine.
func (p *Policy) UpdateQueues(queues []Queue) (*Policy, error) {
	tq, fields := queueInput(queues)
	tree, _, err := queuetree.Update(p.tree, tq)
	errs := []error{err}
	rcfg, err := p.parseQueues(fields)
	errs = append(errs, err)
	var resolver *runtime.Resolver
	if tree != nil && err == nil {
		resolver, _, err = runtime.UpdateResolver(p.resolver, tree, rcfg)
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p.with(tree, resolver)
}

// UpdateQueuesTolerant is [Policy.UpdateQueues] for a scheduler that must
// keep running on whatever queue list it has: it never returns a nil
// Policy for a non-nil p. It repairs the list as queuetree.UpdateTolerant
// does (an empty name or a later duplicate dropped, an orphan made
// top-level, a cycle broken) and the min-runtime settings as
// runtime.UpdateResolverTolerant does (a setting for a dropped entry
// ignored, the first of repeated entries used); a min-runtime string that
// does not parse is ignored, so that queue inherits from its parent as if
// the field were unset. It returns every problem repaired, one error each
// (nil when there is none), and then the same Policy UpdateQueues
// returns. It returns p itself when the tree and the resolver are reused:
// queues describes p's queues and settings, or is, entry for entry, the
// list with problems p was built from (whose problems are then reported
// again). Concurrency and cost as UpdateQueues; a list with problems
// costs queuetree.NewTolerant's build unless reused.
func (p *Policy) UpdateQueuesTolerant(queues []Queue) (*Policy, []error) {
	tq, fields := queueInput(queues)
	tree, _, problems := queuetree.UpdateTolerant(p.tree, tq)
	rcfg, err := p.parseQueues(fields)
	problems = append(problems, unjoin(err)...)
	resolver, _, rp := runtime.UpdateResolverTolerant(p.resolver, tree, rcfg)
	problems = append(problems, rp...)
	if resolver == nil { // unreachable: UpdateTolerant returns a built tree
		return p, append(problems, errors.New("tenure: UpdateQueuesTolerant: no resolver could be built; the Policy is unchanged"))
	}
	np, err := p.with(tree, resolver)
	if err != nil { // unreachable: New accepted the engine's settings
		return p, append(problems, err)
	}
	return np, problems
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
	p := &Policy{base: base}
	tq, fields := queueInput(queues)
	tree, problems := queuetree.NewTolerant(tq)
	rcfg, err := p.parseQueues(fields)
	problems = append(problems, unjoin(err)...)
	_, rp := runtime.NewResolverTolerant(tree, rcfg)
	return append(problems, rp...)
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
// Config under p's defaults and method, with ParseConfig's error.
func (p *Policy) parseQueues(fields []runtime.QueueFields) (runtime.Config, error) {
	c, err := runtime.ParseConfig(nil, fields)
	c.DefaultPreempt, c.DefaultReclaim, c.Method = p.base.DefaultPreempt, p.base.DefaultReclaim, p.base.Method
	return c, err
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
