package requeue

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// A victim's status in a pass.
const (
	vOpen      uint8 = iota // may still be used
	vCommitted              // evicted with its set
	vDecided                // its outcome is out (skipped, evict error, given up)
)

// vstate is what a pass knows about one victim, by its rank in victim
// order (Engine.known).
type vstate struct {
	groups    []int32 // the groups (domains) it belongs to
	cost      float64
	overrun   time.Duration
	notBefore time.Time
	checks    int32 // examinations for a contender
	fails     int32 // failed set evaluations it took part in
	status    uint8
	examined  bool // took part in a set evaluation
	cheaper   bool // was in a candidate set that lost to a cheaper one
	evictable bool // evicted without error once in this pass
	stamp     uint64
	filterFor int32 // 1 + the contender the filters were last asked about
	filterOK  bool  // their answer
	denyRank  int32 // contender order of the first filter denial, -1 if none
	deny      eligibility.Reason
	denyUntil time.Time
}

// group is the open victims of one domain (all of them without a
// [Localizer]), in victim order.
type group struct {
	key        string
	solo       bool  // a victim the Localizer placed in no domain
	first, n   int32 // members: Engine.gflat[first : first+n]
	live       int32 // open members
	next, prev int32 // the list of groups with open members, cheapest first
	cost       float64
	stamp      uint64 // the search that last looked at it
}

// vgPair says that victim k belongs to group g.
type vgPair struct{ k, g int32 }

func (e *Engine) members(g int32) []int32 {
	gr := &e.groups[g]
	return e.gflat[gr.first : gr.first+gr.n]
}

// buildGroups groups the open victims by the Localizer's domains (one group
// without it) and links the groups cheapest first: by the sum of their
// victims' costs, then their first victim in victim order, then key.
// O(n) for n victim-domain pairs (a hash of the keys), plus O(g log g) to
// order g groups.
func (e *Engine) buildGroups() {
	e.groups, e.gflat, e.vgpairs = e.groups[:0], e.gflat[:0], e.vgpairs[:0]
	if e.loc != nil {
		e.askDomains()
	} else {
		for k := range e.known {
			if e.vs[k].status == vOpen {
				e.vgpairs = append(e.vgpairs, vgPair{int32(k), 0})
			}
		}
		if len(e.vgpairs) > 0 {
			e.groups = append(e.groups, group{})
		}
	}
	e.fillGroups()
	e.linkVictimGroups(e.vgcount)
	e.linkGroups()
}

// askDomains asks the Localizer for the domains of every open victim, in
// the order of their IDs (a model that keeps its jobs in that order is
// then read in order), and leaves the victim-group pairs in e.vgpairs in
// victim order. O(n) for n victim-domain pairs.
func (e *Engine) askDomains() {
	if e.groupIdx == nil {
		e.groupIdx = map[string]int32{}
	}
	e.lastKey, e.lastGroup = "", -1
	byID := slices.Grow(e.byID[:0], len(e.known))[:len(e.known)]
	for k := range e.known {
		byID[e.known[k].rank] = int32(k)
	}
	for _, k := range byID {
		if e.vs[k].status == vOpen {
			e.groupsOf(k)
		}
	}
	e.byID, e.lastKey = byID, ""
	clear(e.domBuf[:cap(e.domBuf)]) // only the engine's own buffer
	clear(e.groupIdx)
	e.pairsInVictimOrder()
}

// pairsInVictimOrder sorts e.vgpairs by victim, stably: a counting sort,
// O(pairs + victims).
func (e *Engine) pairsInVictimOrder() {
	at := e.vgcount[:0]
	for range len(e.known) + 1 {
		at = append(at, 0)
	}
	for _, p := range e.vgpairs {
		at[p.k+1]++
	}
	for k := 1; k < len(at); k++ {
		at[k] += at[k-1]
	}
	sorted := slices.Grow(e.vgsorted[:0], len(e.vgpairs))[:len(e.vgpairs)]
	for _, p := range e.vgpairs {
		sorted[at[p.k]] = p
		at[p.k]++
	}
	e.vgpairs, e.vgsorted, e.vgcount = sorted, e.vgpairs[:0], at[:0]
}

// groupsOf asks the Localizer for open victim k's domains and notes a pair
// for each group it belongs to (a group of its own when it has none),
// making the groups it is the first to name. The keys are copied out; the
// returned slice is never written to: it may be the model's own storage
// rather than dst.
func (e *Engine) groupsOf(k int32) {
	job := e.known[k].job
	doms := e.loc.Domains(job, e.domBuf[:0])
	if len(doms) == 0 {
		e.vgpairs = append(e.vgpairs, vgPair{k, int32(len(e.groups))})
		e.groups = append(e.groups, group{key: job, solo: true})
	}
	from := len(e.vgpairs)
	for _, d := range doms {
		g := e.lastGroup
		if d != e.lastKey || g < 0 { // victims of one domain tend to come together
			var seen bool
			if g, seen = e.groupIdx[d]; !seen {
				g = int32(len(e.groups))
				e.groupIdx[d] = g
				e.groups = append(e.groups, group{key: d})
			}
			e.lastKey, e.lastGroup = d, g
		}
		if !slices.Contains(e.vgpairs[from:], vgPair{k, g}) { // a key named twice
			e.vgpairs = append(e.vgpairs, vgPair{k, g})
		}
	}
	if len(doms) > cap(e.domBuf) {
		// dst of the engine's own, with room for the next answers.
		e.domBuf = make([]string, 0, 2*len(doms))
	}
}

// fillGroups lays the groups' members out in e.gflat, each group's in
// victim order (the pairs are: a counting sort by group keeps it), sums
// their costs, and counts each victim's groups in e.vgcount. O(pairs +
// groups + victims).
func (e *Engine) fillGroups() {
	for _, p := range e.vgpairs {
		e.groups[p.g].n++
	}
	at := int32(0)
	for g := range e.groups {
		gr := &e.groups[g]
		gr.first, gr.live, at = at, gr.n, at+gr.n
		gr.n = 0
	}
	e.gflat = slices.Grow(e.gflat[:0], int(at))[:at]
	counts := e.vgcount[:0]
	for range e.known {
		counts = append(counts, 0)
	}
	for _, p := range e.vgpairs {
		gr := &e.groups[p.g]
		e.gflat[gr.first+gr.n] = p.k
		gr.n++
		gr.cost += e.vs[p.k].cost
		counts[p.k]++
	}
	e.vgcount = counts
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// linkVictimGroups gives each victim the list of its groups.
func (e *Engine) linkVictimGroups(counts []int32) {
	total := int32(0)
	for k, n := range counts {
		counts[k] = total
		total += n
	}
	e.vgflat = slices.Grow(e.vgflat[:0], int(total))[:total]
	fill := counts // counts[k] is where victim k's next group goes
	for g := range e.groups {
		for _, k := range e.members(int32(g)) {
			e.vgflat[fill[k]] = int32(g)
			fill[k]++
		}
	}
	start := int32(0)
	for k := range e.known {
		e.vs[k].groups = e.vgflat[start:fill[k]:fill[k]]
		start = fill[k]
	}
	e.vgcount = counts
}

// linkGroups links the groups in order: cheapest first, then by their
// first victim in victim order (so that groups of equal cost are searched
// as the victim order, custom or default, prefers), then key (groups of
// the Localizer's domains before the groups of victims without one).
// O(g log g).
func (e *Engine) linkGroups() {
	order := e.gorder[:0]
	for g := range e.groups {
		gr := &e.groups[g]
		order = append(order, groupKey{gr.cost, e.gflat[gr.first], int32(g)})
	}
	slices.SortFunc(order, func(a, b groupKey) int {
		if c := cmp.Or(cmp.Compare(a.cost, b.cost), cmp.Compare(a.first, b.first)); c != 0 {
			return c
		}
		ga, gb := &e.groups[a.g], &e.groups[b.g]
		return cmp.Or(cmp.Compare(b2i(ga.solo), b2i(gb.solo)), strings.Compare(ga.key, gb.key))
	})
	e.ghead, e.gtail = -1, -1
	prev := int32(-1)
	for _, o := range order {
		g := o.g
		e.groups[g].prev, e.groups[g].next = prev, -1
		if prev < 0 {
			e.ghead = g
		} else {
			e.groups[prev].next = g
		}
		prev = g
	}
	e.gtail = prev
	e.gorder = order
}

// groupKey is what linkGroups orders a group by.
type groupKey struct {
	cost  float64
	first int32 // its first victim
	g     int32
}

// close ends victim k's part in the pass: it leaves its groups, and a group
// left without open victims leaves the list. O(groups of k).
func (e *Engine) close(k int32, status uint8) {
	e.vs[k].status = status
	e.closed++
	for _, g := range e.vs[k].groups {
		gr := &e.groups[g]
		if gr.live--; gr.live == 0 {
			e.unlink(g)
		}
	}
}

// unlink takes group g out of the list; its next stays, so that a walk
// standing on g goes on from there. The same unlink as remove's
// (engine_input.go) for contenders, written out for the same reason.
func (e *Engine) unlink(g int32) {
	gr := &e.groups[g]
	if gr.prev >= 0 {
		e.groups[gr.prev].next = gr.next
	} else {
		e.ghead = gr.next
	}
	if gr.next >= 0 {
		e.groups[gr.next].prev = gr.prev
	} else {
		e.gtail = gr.prev
	}
}

// toBack moves group g to the end of the list. O(1).
func (e *Engine) toBack(g int32) {
	if g == e.gtail || e.groups[g].live == 0 { // last already, or out of the list
		return
	}
	e.unlink(g)
	gr := &e.groups[g]
	gr.prev, gr.next = e.gtail, -1
	e.groups[e.gtail].next = g
	e.gtail = g
	e.reordered++
}

// outcome is the start of victim k's outcome.
func (e *Engine) outcome(k int32) Outcome {
	return Outcome{Job: e.known[k].job, Nominators: e.known[k].nominators}
}

// giveUp closes victim k because a per-victim bound was reached; its
// outcome says so, or gives the filters' denial if one was met.
func (e *Engine) giveUp(k int32, reason eligibility.Reason) {
	o := e.outcome(k)
	if vs := &e.vs[k]; vs.denyRank >= 0 {
		o.Kind, o.Reason, o.Until = OutcomeSkipped, vs.deny, vs.denyUntil
	} else {
		o.Kind, o.Reason = OutcomeKept, reason
	}
	e.close(k, vDecided)
	e.emit(o)
}

// finish emits the outcome of every victim still open at the end of the
// pass, in victim order.
func (e *Engine) finish() {
	for k := range e.known {
		vs := &e.vs[k]
		if vs.status != vOpen {
			continue
		}
		o := e.outcome(int32(k))
		switch {
		case e.stop != "":
			o.Kind, o.Reason = OutcomeDeferred, e.stop
		case vs.denyRank >= 0:
			o.Kind, o.Reason, o.Until = OutcomeSkipped, vs.deny, vs.denyUntil
		case vs.cheaper:
			o.Kind, o.Reason = OutcomeKept, ReasonCheaperSet
		case vs.examined:
			o.Kind, o.Reason = OutcomeKept, ReasonNoFit
		case e.setBounded:
			o.Kind, o.Reason = OutcomeDeferred, ReasonSetSearchBound
		default:
			o.Kind, o.Reason = OutcomeKept, ReasonNoContender
		}
		vs.status = vDecided
		e.emit(o)
	}
}
