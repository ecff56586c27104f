package timebased

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// Tiers of the candidate order: preemptible candidates already being
// evicted, then the other preemptible ones, then the rest.
const (
	candidateTierEvicted uint8 = iota
	candidateTierPreemptible
	candidateTierOther
)

// Ranks of the classes in preemption order within a tier: lower priority,
// then expired, then newer; the non-preemptible classes follow in a fixed
// order so that sorting any decisions is deterministic.
const (
	candidateRankLower uint16 = iota
	candidateRankExpired
	candidateRankNewer
	candidateRankOther // then by class value
)

func candidateRankOf(c class) uint16 {
	switch c {
	case classLowerPriority:
		return candidateRankLower
	case classExpired:
		return candidateRankExpired
	case classNewer:
		return candidateRankNewer
	}
	return candidateRankOther + uint16(c)
}

// candidateKey is a decision's precomputed sort key. The reservation used
// for ordering ([candidateOrderReserved]) is kept as exact seconds since
// January 1, year 1 (the seconds time.Time stores; Time.Unix would wrap for
// the earliest instants) and nanoseconds.
type candidateKey struct {
	tier    uint8
	evicted bool
	rank    uint16
	prio    int32
	nsec    int32
	sec     int64
	idx     int
}

// unixToYear1 is the number of seconds from January 1, year 1 to the Unix
// epoch.
const unixToYear1 = 62135596800

// candidateOrderReserved returns the reservation instant d orders by, and
// false when there is none to use: Reserved when it is set; else the
// instant the decision was made (d.At), as Kueue's CandidatesOrdering
// counts a missing reservation as the current time; else (a decision built
// by hand, without At) none, which orders after every recorded reservation.
func candidateOrderReserved(d *Decision) (time.Time, bool) {
	switch {
	case !d.Candidate.Reserved.IsZero():
		return d.Candidate.Reserved, true
	case !d.At.IsZero():
		return d.At, true
	}
	return time.Time{}, false
}

func candidateKeyOf(d *Decision, idx int) candidateKey {
	cls := classOf(d.Reason)
	k := candidateKey{
		tier:    candidateTierOther,
		evicted: d.Candidate.Evicted,
		rank:    candidateRankOf(cls),
		prio:    d.Candidate.Priority,
		sec:     math.MaxInt64,
		nsec:    math.MaxInt32,
		idx:     idx,
	}
	if cls.preemptible() {
		k.tier = candidateTierPreemptible
		if k.evicted {
			k.tier = candidateTierEvicted
		}
	}
	if r, ok := candidateOrderReserved(d); ok {
		// Wrapping int64 arithmetic undoes Time.Unix's wrap exactly.
		k.sec, k.nsec = r.Unix()+unixToYear1, int32(r.Nanosecond())
	}
	return k
}

// candidateReserved compares the reservation instants of two keys.
func candidateReserved(a, b *candidateKey) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}

// candidatePrimary compares two keys by tier, class and the class's own
// criterion (the order of Compare before the ID tie-break).
func candidatePrimary(a, b *candidateKey) int {
	if a.tier != b.tier {
		return cmp.Compare(a.tier, b.tier)
	}
	if a.rank != b.rank {
		return cmp.Compare(a.rank, b.rank)
	}
	switch a.rank {
	case candidateRankLower:
		if c := cmp.Compare(a.prio, b.prio); c != 0 {
			return c // lowest priority first
		}
		return candidateReserved(b, a) // then most recently reserved first
	case candidateRankExpired:
		return candidateReserved(a, b) // longest-running first
	case candidateRankNewer:
		return candidateReserved(b, a) // most recently admitted first
	}
	if c := cmp.Compare(a.prio, b.prio); c != 0 {
		return c
	}
	return candidateReserved(a, b)
}

// candidateSecondary breaks ties between equal IDs (duplicates only) on the
// fields that matter, so that only identical candidates compare equal.
func candidateSecondary(a, b *candidateKey) int {
	if c := cmp.Compare(a.prio, b.prio); c != 0 {
		return c
	}
	if c := candidateReserved(a, b); c != 0 {
		return c
	}
	switch {
	case a.evicted == b.evicted:
		return 0
	case a.evicted:
		return -1
	}
	return 1
}

// Compare returns a negative number when a should be preempted before b:
// Kueue's CandidatesOrdering with KEP-8522's classes, read from each
// decision's Reason (the labels [Config.Classify] gives; the zero Reason
// counts as "not_allowed", any other label as a class after every
// other). Preemptible decisions ("lower_priority", "expired", "newer")
// come first, those already being evicted ahead of the rest;
// among them lower priority (lowest first, then most recently reserved),
// then expired (earliest Reserved first), then newer (latest Reserved
// first); ties by ID. A zero Reserved counts as [Decision.At], as Kueue
// counts it as the current time (a decision without At: after every
// recorded reservation). Non-preemptible decisions go last, by class. A
// strict weak ordering for slices.SortFunc; O(len(ID)), no allocation.
func Compare(a, b Decision) int {
	ka, kb := candidateKeyOf(&a, 0), candidateKeyOf(&b, 0)
	if c := candidatePrimary(&ka, &kb); c != 0 {
		return c
	}
	if c := strings.Compare(a.Candidate.ID, b.Candidate.ID); c != 0 {
		return c
	}
	return candidateSecondary(&ka, &kb)
}

// Sort sorts ds stably into the order of [Compare], computing each key
// once: faster than slices.SortFunc with Compare. O(n log n); it
// allocates one 32-byte key per decision.
func Sort(ds []Decision) {
	if len(ds) < 2 {
		return
	}
	keys := make([]candidateKey, len(ds))
	for i := range ds {
		keys[i] = candidateKeyOf(&ds[i], i)
	}
	slices.SortFunc(keys, func(a, b candidateKey) int {
		if c := candidatePrimary(&a, &b); c != 0 {
			return c
		}
		// Ties on the primary order are rare; only then are the IDs
		// (elsewhere in memory) read.
		if c := strings.Compare(ds[a.idx].Candidate.ID, ds[b.idx].Candidate.ID); c != 0 {
			return c
		}
		if c := candidateSecondary(&a, &b); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	// Permute in place, one cycle of the permutation at a time: position j
	// receives decision keys[j].idx; a placed position is marked idx == j.
	// (The same loop permutes queue entries in requeue/backoff/order.go and
	// candidates in eligibility/timebased/order.go: each works on its own
	// key and element types, and the two packages share no lower package
	// to hold a generic helper without adding one to the API.)
	for i := range keys {
		if keys[i].idx == i {
			continue
		}
		saved := ds[i]
		j := i
		for {
			k := keys[j].idx
			keys[j].idx = j
			if k == i {
				ds[j] = saved
				break
			}
			ds[j] = ds[k]
			j = k
		}
	}
}
