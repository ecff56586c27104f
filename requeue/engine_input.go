package requeue

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// errContenderNominated is the error of a contender problem
// ([EngineResult].ContenderProblems) for a contender whose ID is also
// nominated: a job cannot be both running (a victim) and
// pending (a contender), so the engine keeps the nomination and drops the
// contender.
var errContenderNominated = errors.New("requeue: contender is also nominated as a victim")

// errEmptyContenderID is the error of a contender problem for a contender
// with an empty ID, which no model can name: the engine drops it (an
// empty victim ID is skipped with [ReasonInvalidID]).
var errEmptyContenderID = errors.New("requeue: contender with an empty ID")

// mergeVictim folds the data of o into v, for two entries describing the
// same job (the same ID). Each field takes the value that protects the
// running job the most, so the result does not depend on which nominator
// reported first (the rule [EngineInput.Victims] documents):
//
//   - Priority: the highest (fewer contenders qualify).
//   - Queue: the largest ID; queuetree.None (-1) loses to any queue. Two
//     different queues are inconsistent data: the rule only makes the
//     result independent of the input order.
//   - Start: the latest; a known start (non-zero) wins over an unknown one.
//   - Expected: the longest (the smallest overrun).
//   - RequeueDelay: an explicit delay (HasRequeueDelay) wins over none; of
//     two explicit delays, the longest.
//   - NotBefore: the latest; a gate (non-zero) wins over none.
//   - LastCheckpoint: the earliest (the most work at stake); a known
//     checkpoint wins over none.
//   - Resources: the largest (NaN loses to any number).
//
// The rule is commutative and associative; O(1), no allocation.
func mergeVictim(v *Victim, o *Victim) {
	v.Priority = max(v.Priority, o.Priority)
	v.Queue = max(v.Queue, o.Queue)
	v.Start = laterKnown(v.Start, o.Start)
	v.Expected = max(v.Expected, o.Expected)
	switch {
	case !o.HasRequeueDelay:
	case !v.HasRequeueDelay:
		v.RequeueDelay, v.HasRequeueDelay = o.RequeueDelay, true
	default:
		v.RequeueDelay = max(v.RequeueDelay, o.RequeueDelay)
	}
	v.NotBefore = laterKnown(v.NotBefore, o.NotBefore)
	switch {
	case o.LastCheckpoint.IsZero():
	case v.LastCheckpoint.IsZero() || o.LastCheckpoint.Before(v.LastCheckpoint):
		v.LastCheckpoint = o.LastCheckpoint
	}
	if o.Resources > v.Resources || v.Resources != v.Resources { // v NaN: o wins
		v.Resources = o.Resources
	}
}

// instant returns t in UTC without its monotonic clock reading: the same
// value for every way of writing one instant (the zero time stays zero).
func instant(t time.Time) time.Time { return t.Round(0).UTC() }

// laterKnown returns the later of two instants, a non-zero one winning over
// the zero time.
func laterKnown(a, b time.Time) time.Time {
	switch {
	case b.IsZero():
		return a
	case a.IsZero() || b.After(a):
		return b
	}
	return a
}

// compareContenders is the total order of contenders: highest priority
// first, then the oldest Queued, then ID, then (for duplicate IDs only)
// the smallest queue.
func compareContenders(a, b *Contender) int {
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	if c := a.Queued.Compare(b.Queued); c != 0 {
		return c
	}
	if c := strings.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.Queue, b.Queue)
}

// merge deduplicates the nominations into e.entries (sorted by job ID, the
// nominator names sorted and deduplicated) and the victim data into
// e.victims (sorted by ID, merged with mergeVictim), and joins the two.
func (e *Engine) merge(in *EngineInput) {
	nomsIn, victimsIn := in.Nominations, in.Victims
	if len(in.Nominated) > 0 { // one list of each, in e's scratch space
		nomsIn = append(slices.Grow(e.nomsIn[:0], len(in.Nominations)+len(in.Nominated)), in.Nominations...)
		victimsIn = append(slices.Grow(e.victimsIn[:0], len(in.Victims)+len(in.Nominated)), in.Victims...)
		for i := range in.Nominated {
			n := &in.Nominated[i]
			nomsIn = append(nomsIn, VictimNomination{Job: n.ID, Nominator: n.Nominator})
			victimsIn = append(victimsIn, n.Victim)
		}
		e.nomsIn, e.victimsIn = nomsIn, victimsIn
		defer func() { // drop the references, keep the storage
			clear(e.nomsIn)
			clear(e.victimsIn)
			e.nomsIn, e.victimsIn = e.nomsIn[:0], e.victimsIn[:0]
		}()
	}
	noms := e.sortNominations(nomsIn)
	noms = slices.Compact(noms)
	e.noms = noms
	e.mergeVictims(victimsIn)

	names := make([]string, len(noms)) // one backing array for all Nominators
	e.entries = e.entries[:0]
	v := 0 // e.victims and noms are both sorted by ID: a merge join
	for i := 0; i < len(noms); {
		k := i
		for k < len(noms) && noms[k].Job == noms[i].Job {
			names[k] = noms[k].Nominator
			k++
		}
		for v < len(e.victims) && e.victims[v].ID < noms[i].Job {
			v++
		}
		vi := int32(-1)
		if v < len(e.victims) && e.victims[v].ID == noms[i].Job {
			vi = int32(v)
		}
		e.entries = append(e.entries, victimEntry{job: noms[i].Job, nominators: names[i:k:k], victim: vi})
		i = k
	}
	clear(e.noms)
}

// mergeVictims copies vs into e.victims sorted by ID, the entries of one
// ID merged (mergeVictim, in input order, though its rule does not depend
// on it). Whichever entry's time won, the victims' times are then in UTC
// without a monotonic reading, so that the results (Outcome.Until, Wake)
// and what the filters see do not depend on the time zone of the entry
// that came first. O(n log n) integer comparisons (sortByID).
func (e *Engine) mergeVictims(vs []Victim) {
	keys := sortByID(e.idKeys, len(vs), func(i int32) string { return vs[i].ID },
		func(a, b int32) int { return cmp.Compare(a, b) })
	e.victims = e.victims[:0]
	for j, k := range keys {
		v := &vs[k.i]
		if j > 0 && vs[keys[j-1].i].ID == v.ID {
			mergeVictim(&e.victims[len(e.victims)-1], v)
			continue
		}
		e.victims = append(e.victims, *v)
	}
	e.idKeys = keys[:0]
	for i := range e.victims {
		v := &e.victims[i]
		v.Start, v.NotBefore, v.LastCheckpoint = instant(v.Start), instant(v.NotBefore), instant(v.LastCheckpoint)
	}
}

// sortNominations returns a copy of noms (in e's scratch space) sorted by
// job, then nominator (sortByID).
func (e *Engine) sortNominations(noms []VictimNomination) []VictimNomination {
	keys := sortByID(e.idKeys, len(noms), func(i int32) string { return noms[i].Job },
		func(a, b int32) int { return strings.Compare(noms[a].Nominator, noms[b].Nominator) })
	out := slices.Grow(e.noms[:0], len(noms))
	for _, k := range keys {
		out = append(out, noms[k.i])
	}
	e.idKeys = keys[:0]
	return out
}

// sortByID returns keys, its storage reused, holding the indices 0 to n-1
// sorted by id, then by tie. The sort compares, for most pairs, one
// integer: the 8 bytes of the IDs that follow the prefix every ID shares
// (IDs tend to share a long one, "victim-0..."), with a full comparison
// only where those are equal. O(n log n) integer comparisons plus O(total
// length of the IDs).
func sortByID(keys []idKey, n int, id func(int32) string, tie func(a, b int32) int) []idKey {
	at := commonPrefix(n, func(i int) string { return id(int32(i)) })
	keys = keys[:0]
	for i := range int32(n) {
		keys = append(keys, idKey{key: prefixKey(id(i), at), i: i})
	}
	slices.SortFunc(keys, func(a, b idKey) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Or(strings.Compare(id(a.i), id(b.i)), tie(a.i, b.i))
	})
	return keys
}

// idKey is an item to sort by ID: the integer prefixKey of its ID, and its
// index.
type idKey struct {
	key uint64
	i   int32
}

// commonPrefix returns the length of the longest prefix shared by the n
// strings id(0), ..., id(n-1). O(total length).
func commonPrefix(n int, id func(int) string) int {
	if n == 0 {
		return 0
	}
	first := id(0)
	l := len(first)
	for i := 1; i < n && l > 0; i++ {
		s := id(i)
		l = min(l, len(s))
		for j := 0; j < l; j++ {
			if s[j] != first[j] {
				l = j
				break
			}
		}
	}
	return l
}

// prefixKey returns the 8 bytes of s from offset at (big-endian, padded
// with zeros): of two strings whose first at bytes are equal, the one
// with the smaller key is the smaller string (equal keys tell nothing).
func prefixKey(s string, at int) uint64 {
	var k uint64
	for j := range 8 {
		k <<= 8
		if at+j < len(s) {
			k |= uint64(s[at+j])
		}
	}
	return k
}

// prepareContenders sorts and deduplicates the contenders into e.conts
// (the first of each ID in contender order is kept), drops the nominated
// ones with an error, and groups them by shape.
func (e *Engine) prepareContenders(in []Contender, res *EngineResult) {
	for _, c := range in {
		c.Queued = instant(c.Queued) // compare instants as instants
		if k, dup := e.contIdx[c.ID]; dup {
			if compareContenders(&c, &e.conts[k].c) < 0 {
				e.conts[k].c = c
			}
			continue
		}
		e.contIdx[c.ID] = int32(len(e.conts))
		e.conts = append(e.conts, contender{c: c})
	}
	slices.SortFunc(e.conts, func(a, b contender) int { return compareContenders(&a.c, &b.c) })
	out := e.conts[:0]
	for _, c := range e.conts {
		if c.c.ID == "" {
			res.ContenderProblems = append(res.ContenderProblems, contenderProblem{Err: errEmptyContenderID})
			continue
		}
		if e.isNominated(c.c.ID) {
			res.ContenderProblems = append(res.ContenderProblems, contenderProblem{Contender: c.c.ID,
				Err: fmt.Errorf("%w: %q", errContenderNominated, c.c.ID)})
			continue
		}
		out = append(out, c)
	}
	clear(e.conts[len(out):])
	e.conts = out

	// Shapes: contenders of one shape share a shapeState. The available
	// contenders form a list in contender order.
	for ci := range e.conts {
		c := &e.conts[ci]
		s := int32(-1)
		if e.shaper != nil {
			if key, ok := e.shaper.Shape(c.c.ID); ok {
				k, seen := e.shapeIdx[key]
				if !seen {
					k = e.newShape()
					e.shapeIdx[key] = k
				}
				s = k
			}
		}
		if s < 0 {
			s = e.newShape()
		}
		c.shape, c.prev, c.next = s, int32(ci)-1, int32(ci)+1
	}
	e.chead, e.left, e.cur, e.behind = -1, len(e.conts), 0, 0
	if n := len(e.conts); n > 0 {
		e.chead = 0
		e.conts[n-1].next = -1
	}
}

// isNominated reports whether job is nominated: a binary search of the
// entries, sorted by job ID.
func (e *Engine) isNominated(job string) bool {
	_, found := slices.BinarySearchFunc(e.entries, job, func(ent victimEntry, job string) int {
		return strings.Compare(ent.job, job)
	})
	return found
}

func (e *Engine) newShape() int32 {
	e.shapes = append(e.shapes, shapeState{})
	return int32(len(e.shapes) - 1)
}

// remove takes contender ci out of the list of available contenders (it
// was placed or dropped). O(1).
func (e *Engine) remove(ci int32) {
	c := &e.conts[ci]
	if c.prev >= 0 {
		e.conts[c.prev].next = c.next
	} else {
		e.chead = c.next
	}
	if c.next >= 0 {
		e.conts[c.next].prev = c.prev
	}
	c.next, c.prev, c.gone = -1, -1, true
	e.left--
	if int(ci) < e.cur {
		e.behind--
	}
}
