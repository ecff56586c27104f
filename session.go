package tenure

import (
	"errors"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// errNilPolicy is the error of UpdateQueues called on a nil or zero
// Policy.
var errNilPolicy = errors.New("tenure: UpdateQueues of a nil or zero Policy: build one with New")

// UpdateQueues returns the Policy [New] would build from p's Config with
// queues, and New's error for them, for a scheduler that reads its queues
// anew every session (KAI-Scheduler's framework.Session). When queues
// describes p's queues (the same names, parents and min-runtime strings,
// in any order), it returns p itself in O(n): no parse, no sort. Otherwise
// the new Policy has its own tree, resolver, filter, validator and engine
// and shares the rest (the Config's callbacks must then be safe for
// concurrent use); its IDs are numbered afresh; it costs what New costs. p
// is never changed and may run a Cycle meanwhile; a nil or zero p gives nil
// and an error.
func (p *Policy) UpdateQueues(queues []Queue) (*Policy, error) {
	if p == nil || p.tree == nil {
		return nil, errNilPolicy
	}
	if p.sameQueues(queues) {
		return p, nil
	}
	tree, resolver, problems := tolerantQueues(p.base, queues)
	np, err := p.with(tree, resolver)
	if err != nil { // unreachable: New accepted the engine's settings
		return nil, err
	}
	if len(problems) == 0 {
		np.recordQueues(queues)
	}
	return np, errors.Join(problems...)
}

// newTolerant is New with its problems one error each: the Policy built
// from cfg with its queues repaired, or nil when another part of cfg has a
// problem.
func newTolerant(cfg Config) (*Policy, []error) {
	rest := cfg
	rest.Queues = nil
	p, err := rest.build()
	if err != nil {
		base, _ := runtime.ParseConfig(cfg.MinRuntimeArgs, nil)
		_, _, problems := tolerantQueues(base, cfg.Queues)
		return nil, append(problems, unjoin(err)...)
	}
	tree, resolver, problems := tolerantQueues(p.base, cfg.Queues)
	np, err := p.with(tree, resolver)
	if err != nil { // unreachable: build accepted the engine's settings
		return nil, append(problems, err)
	}
	if len(problems) == 0 {
		np.recordQueues(cfg.Queues)
	}
	return np, problems
}

// tolerantQueues builds the tree and the resolver of queues with New's
// repairs, under the defaults and method of base, and
// returns the problems repaired, one [*ConfigError] each (nil when there is
// none).
func tolerantQueues(base runtime.Config, queues []Queue) (*queuetree.Tree, *runtime.Resolver, []error) {
	tq, fields := queueInput(queues)
	tree, err := queuetree.New(tq)
	problems := unjoin(err)
	rcfg, err := parseQueues(base, fields)
	problems = append(problems, unjoin(err)...)
	resolver, rerr := runtime.NewResolver(tree, rcfg)
	rp := unjoin(rerr)
	return tree, resolver, queueErrors(append(problems, rp...))
}

// with returns p when tree and resolver are p's, else a copy of p with
// them and its own filter, validator and engine.
func (p *Policy) with(tree *queuetree.Tree, resolver *runtime.Resolver) (*Policy, error) {
	if tree == p.tree && resolver == p.resolver {
		return p, nil
	}
	np := &Policy{cfg: p.cfg, base: p.base, tree: tree, resolver: resolver, nominator: p.nominator,
		requeuing: p.requeuing, clock: p.clock, preemption: p.preemption, protection: p.protection,
		delay: p.delay, budget: p.budget, planner: p.planner}
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
	p.given = make([]int32, p.tree.IDLimit())
	p.givenCount = len(queues)
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
	if p.given == nil || len(queues) != p.givenCount {
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
