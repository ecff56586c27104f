package runtime_test

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// naiveResolver resolves min-runtimes the way a straightforward scheduler
// plugin does: string-keyed maps, and for every query a fresh slice holding
// each queue's path to the top, walked from scratch. It is the oracle of
// the differential test and the baseline of the benchmarks. It shares no
// code with the Resolver and does not use queuetree.
type naiveResolver struct {
	parent     map[string]string // "" for a top-level queue
	preempt    map[string]time.Duration
	reclaim    map[string]time.Duration
	defPreempt time.Duration
	defReclaim time.Duration
	method     runtime.Method
}

// naiveQueue is one queue for newNaive.
type naiveQueue struct {
	name, parent     string
	preempt, reclaim *time.Duration
}

func newNaive(c runtime.Config, queues []naiveQueue) *naiveResolver {
	n := &naiveResolver{
		parent:     map[string]string{},
		preempt:    map[string]time.Duration{},
		reclaim:    map[string]time.Duration{},
		defPreempt: c.DefaultPreempt,
		defReclaim: c.DefaultReclaim,
		method:     c.Method,
	}
	for _, q := range queues {
		n.parent[q.name] = q.parent
		if q.preempt != nil {
			n.preempt[q.name] = *q.preempt
		}
		if q.reclaim != nil {
			n.reclaim[q.name] = *q.reclaim
		}
	}
	return n
}

// path returns q, its parent, ..., its top-level queue; nil if q is
// unknown. The implicit root, named "", has an empty path.
func (n *naiveResolver) path(q string) []string {
	p := []string{}
	for q != "" {
		parent, ok := n.parent[q]
		if !ok {
			return nil
		}
		p = append(p, q)
		q = parent
	}
	return p
}

// walk returns the first setting in values along path, else def.
func walk(path []string, values map[string]time.Duration, def time.Duration) (time.Duration, string) {
	for _, q := range path {
		if d, ok := values[q]; ok {
			return d, q
		}
	}
	return def, ""
}

// Preempt returns the duration and the source queue ("" for the default).
func (n *naiveResolver) Preempt(victim string) (time.Duration, string) {
	return walk(n.path(victim), n.preempt, n.defPreempt)
}

// Reclaim returns the duration and the source queue ("" for the default).
func (n *naiveResolver) Reclaim(reclaimer, victim string) (time.Duration, string) {
	vp := n.path(victim)
	if vp == nil {
		return n.defReclaim, ""
	}
	if n.method == runtime.MethodQueue {
		return walk(vp, n.reclaim, n.defReclaim)
	}
	rp := n.path(reclaimer)
	if rp == nil {
		return n.defReclaim, ""
	}
	// The LCA is the first queue on the victim's path that is also on the
	// reclaimer's; past the end of the path it is the implicit root.
	lca := len(vp)
	for i, q := range vp {
		if slices.Contains(rp, q) {
			lca = i
			break
		}
	}
	start := 0 // the victim's queue is the LCA itself
	if lca > 0 {
		start = lca - 1 // one step down from the LCA toward the victim
	}
	return walk(vp[start:], n.reclaim, n.defReclaim)
}
