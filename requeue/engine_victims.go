package requeue

import (
	"math"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// A victim's status in a pass.
const (
	vOpen      uint8 = iota // may still be used
	vCommitted              // evicted with its set
	vDecided                // its outcome is out (skipped, evict error)
)

// blockSize is the number of victim ranks one entry of Engine.blockMin
// sums up.
const blockSize = 64

// vstate is what a pass knows about one victim, by its rank in victim
// order (Engine.known).
type vstate struct {
	cost      float64
	overrun   time.Duration
	notBefore time.Time
	status    uint8
	examined  bool                 // in the eligible list of a search that found no set
	cheaper   bool                 // among the victims a search looked at below its set, not in it
	cut       bool                 // in the eligible list of a search that reached its share
	lost      bool                 // in a set over MaxLostWork
	filterFor int32                // 1 + the contender the filters were last asked about
	filterOK  bool                 // their answer
	verdict   eligibility.Decision // their decision, kept for a denial
	denyRank  int32                // contender order of the first filter denial, -1 if none
	deny      eligibility.Reason
	denyUntil time.Time
}

// buildIndex notes the distinct priorities of the victims, and per block
// of ranks the lowest priority of its open victims. O(n log n).
func (e *Engine) buildIndex() {
	e.prios, e.blockMin = e.prios[:0], e.blockMin[:0]
	for k := range e.known {
		e.prios = append(e.prios, e.victims[e.known[k].victim].Priority)
	}
	slices.Sort(e.prios)
	e.prios = slices.Compact(e.prios)
	for b := 0; b*blockSize < len(e.known); b++ {
		e.blockMin = append(e.blockMin, 0)
		e.reblock(int32(b * blockSize))
	}
}

// reblock recomputes the lowest priority of the open victims of the block
// of rank k (MaxInt32 when none is open). O(blockSize).
func (e *Engine) reblock(k int32) {
	b := int(k) / blockSize
	lowest := int32(math.MaxInt32)
	for r := b * blockSize; r < min(len(e.known), (b+1)*blockSize); r++ {
		if e.vs[r].status == vOpen {
			lowest = min(lowest, e.victims[e.known[r].victim].Priority)
		}
	}
	e.blockMin[b] = lowest
}

// classOf names the eligible list of contender ci: two contenders of one
// class may use the same victims in the current state. With the default
// CanContend, the class of a contender is the number of distinct victim
// priorities below its own (the filters may tell its victims apart, but a
// contender that does not fit with all of its class's victims evicted
// fits with no subset of them, for a monotone Place); with a custom one,
// ContendClass's key, else each contender is a class of its own (a
// negative key).
func (e *Engine) classOf(ci int32) int64 {
	if e.cfg.CanContend != nil {
		if e.cfg.ContendClass != nil {
			if k := e.cfg.ContendClass(&e.conts[ci].c); k >= 0 {
				return k
			}
		}
		return -1 - int64(ci)
	}
	i, _ := slices.BinarySearch(e.prios, e.conts[ci].c.Priority)
	return int64(i)
}

// nextEligible appends to e.elig the next victim, in victim order, that
// contender ci may use: open, CanContend true, not denied for ci by the
// filters. It reports false at the end of the victims (e.done) or when a
// bound stopped the search. With the default CanContend it skips, a block
// at a time, the victims of priority ci's or higher; a custom CanContend
// is called for each open victim (an examination).
func (e *Engine) nextEligible(ci int32) bool {
	c := &e.conts[ci].c
	for n := int32(len(e.known)); e.scan < n; {
		k := e.scan
		if e.cfg.CanContend == nil && k%blockSize == 0 && e.blockMin[k/blockSize] >= c.Priority {
			e.scan += blockSize
			continue
		}
		e.scan++
		vs := &e.vs[k]
		if vs.status != vOpen {
			continue
		}
		v := &e.victims[e.known[k].victim]
		if e.cfg.CanContend == nil {
			if c.Priority <= v.Priority {
				continue
			}
		} else {
			if !e.tick() {
				e.scan--
				return false
			}
			if !e.cfg.CanContend(v, c) {
				continue
			}
		}
		if !e.permits(k, ci) {
			e.denials = append(e.denials, k)
			continue
		}
		e.elig = append(e.elig, k)
		return true
	}
	e.done = true
	return false
}

// close ends victim k's part in the pass.
func (e *Engine) close(k int32, status uint8) {
	e.vs[k].status = status
	e.reblock(k)
}

// outcome is the start of victim k's outcome.
func (e *Engine) outcome(k int32) Outcome {
	return Outcome{Job: e.known[k].job, Nominators: e.known[k].nominators}
}

// denied records a filter's denial of victim vs for the contender of rank
// rank: the first denial in contender order gives the reason, the earliest
// Until the wake-up.
func (e *Engine) denied(vs *vstate, rank int32, d eligibility.Decision) {
	if vs.denyRank < 0 || rank < vs.denyRank {
		vs.denyRank, vs.deny = rank, cmp0(d.Reason, ReasonFiltered)
	}
	if !d.Until.IsZero() && (vs.denyUntil.IsZero() || d.Until.Before(vs.denyUntil)) {
		vs.denyUntil = instant(d.Until)
	}
}

func cmp0(r, def eligibility.Reason) eligibility.Reason {
	if r == "" {
		return def
	}
	return r
}

// permits asks the filters, once per victim and contender, whether victim
// k may be evicted for contender ci; a denial's decision is kept for
// recordDenials.
func (e *Engine) permits(k, ci int32) bool {
	vs := &e.vs[k]
	if vs.filterFor != ci+1 {
		d, ok := e.filter(&e.victims[e.known[k].victim], &e.conts[ci].c)
		vs.filterFor, vs.filterOK, vs.verdict = ci+1, ok, d
	}
	return vs.filterOK
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
		case vs.lost:
			o.Kind, o.Reason = OutcomeKept, reasonLostWork
		case vs.cheaper:
			o.Kind, o.Reason = OutcomeKept, reasonCheaperSet
		case vs.examined:
			o.Kind, o.Reason = OutcomeKept, reasonNoFit
		case vs.cut:
			o.Kind, o.Reason = OutcomeDeferred, reasonSetSearchBound
		default:
			o.Kind, o.Reason = OutcomeKept, reasonNoContender
		}
		vs.status = vDecided
		e.emit(o)
	}
}
