package timebased_test

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// tbGenInstant draws an instant on a coarse minute grid with a ±1ns jitter,
// so boundaries (exactly M, exactly the preemptor's timestamp) are hit often.
func tbGenInstant(t *rapid.T, label string) time.Time {
	return tbAt(rapid.IntRange(0, 12).Draw(t, label+".min")).
		Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, label+".ns")))
}

func tbGenConfig(t *rapid.T) timebased.Config {
	c := timebased.Config{Policy: timebased.Policy(rapid.IntRange(0, 3).Draw(t, "policy"))}
	if rapid.Bool().Draw(t, "hasM") {
		m := time.Duration(rapid.IntRange(-2, 8).Draw(t, "M.min"))*time.Minute +
			time.Duration(rapid.IntRange(-1, 1).Draw(t, "M.ns"))
		c.MinAdmitDuration = &m
	}
	c.TimestampPreemptionBuffer = rapid.IntRange(0, 3).Draw(t, "buffer") == 1
	return c
}

func tbGenCandidate(t *rapid.T, label string) timebased.Candidate {
	c := timebased.Candidate{
		ID:       rapid.SampledFrom([]string{"a", "b", "c", "aa"}).Draw(t, label+".id"),
		Priority: rapid.Int32Range(-1, 1).Draw(t, label+".prio"),
	}
	if rapid.IntRange(0, 9).Draw(t, label+".hasReserved") > 0 {
		c.Reserved = tbGenInstant(t, label+".reserved")
	}
	if rapid.Bool().Draw(t, label+".hasQueued") {
		c.Queued = tbGenInstant(t, label+".queued")
	}
	c.Evicted = rapid.IntRange(0, 4).Draw(t, label+".evicted") == 2
	return c
}

// tbOracleClass is the rule read literally — Kueue's
// SatisfiesPreemptionPolicy (queue-order timestamps decide "newer", with
// its optional 5-minute buffer) plus KEP-8522's expiry — written
// independently of Classify.
func tbOracleClass(cfg timebased.Config, p timebased.Request, c timebased.Candidate, now time.Time) eligibility.Reason {
	lone := cfg.Policy == timebased.LowerOrNewerEqualPriority
	if !lone && cfg.Policy != timebased.LowerPriority {
		return clsNotAllowed
	}
	if c.Priority > p.Priority {
		return clsHigherPriority
	}
	if c.Priority < p.Priority {
		return clsLowerPriority
	}
	if !lone {
		return clsNotAllowed
	}
	timeBased := cfg.MinAdmitDuration != nil && *cfg.MinAdmitDuration > 0
	if timeBased && !c.Reserved.IsZero() && now.Sub(c.Reserved) > *cfg.MinAdmitDuration {
		return clsExpired
	}
	// Newer: the candidate came later in queue order than the preemptor,
	// judged by its own queue-order timestamp when known, else by when it
	// was admitted.
	later := c.Reserved
	if !c.Queued.IsZero() {
		later = c.Queued
	}
	switch {
	case later.IsZero():
		return clsUnknownReservation
	case !p.Timestamp.IsZero() && p.Timestamp.Before(later) &&
		// Kueue's SchedulerTimestampPreemptionBuffer gate: more than 5
		// minutes later.
		(!cfg.TimestampPreemptionBuffer || later.Sub(p.Timestamp) > 5*time.Minute):
		return clsNewer
	case timeBased && c.Reserved.IsZero():
		return clsUnknownReservation
	}
	return clsProtected
}

func TestPreemptionClassifyOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := tbGenConfig(t)
		p := timebased.Request{Priority: rapid.Int32Range(-1, 1).Draw(t, "p.prio")}
		if rapid.IntRange(0, 9).Draw(t, "p.hasTS") > 0 {
			p.Timestamp = tbGenInstant(t, "p.ts")
		}
		c := tbGenCandidate(t, "cand")
		now := tbGenInstant(t, "now")

		d := cfg.Classify(p, c, now)
		if want := tbOracleClass(cfg, p, c, now); d.Reason != want {
			t.Fatalf("Classify class %v, oracle %v", d.Reason, want)
		}
		if d.Candidate != c {
			t.Fatalf("decision carries %+v, want %+v", d.Candidate, c)
		}
		// Until is exactly the first instant at which the class flips to
		// expired, and it is set exactly when such an instant exists.
		m := cfg.MinAdmitDuration
		timeBased := cfg.Policy == timebased.LowerOrNewerEqualPriority && m != nil && *m > 0
		wantUntil := timeBased && !c.Reserved.IsZero() && (d.Reason == clsProtected || d.Reason == clsNewer)
		if d.Until.IsZero() == wantUntil {
			t.Fatalf("Until = %v for class %v (time-based %v)", d.Until, d.Reason, timeBased)
		}
		if wantUntil {
			if !d.Until.After(now) {
				t.Fatalf("Until %v not after now %v", d.Until, now)
			}
			if got := tbOracleClass(cfg, p, c, d.Until); got != clsExpired {
				t.Fatalf("oracle at Until %v: %v, want expired", d.Until, got)
			}
			if got := tbOracleClass(cfg, p, c, d.Until.Add(-1)); got != d.Reason {
				t.Fatalf("oracle 1ns before Until: %v, want unchanged %v", got, d.Reason)
			}
		}
	})
}

// tbOracleLess is the candidate order written from its text (Kueue's
// CandidatesOrdering with KEP-8522's classes): preemptible candidates
// already being evicted first; then lower priority (lowest first, then most
// recently reserved), expired (earliest reserved first), newer (latest
// reserved first); a missing reservation is the latest; non-preemptible
// last by class, priority and reservation; ties by ID.
func tbOracleLess(a, b timebased.Decision) bool {
	tier := func(d timebased.Decision) int {
		switch {
		case tbPreemptible(d.Reason) && d.Candidate.Evicted:
			return 0
		case tbPreemptible(d.Reason):
			return 1
		}
		return 2
	}
	group := func(c eligibility.Reason) int {
		switch c {
		case clsLowerPriority:
			return 0
		case clsExpired:
			return 1
		case clsNewer:
			return 2
		}
		return 3 + tbClassIndex(c)
	}
	if ta, tb := tier(a), tier(b); ta != tb {
		return ta < tb
	}
	ga, gb := group(a.Reason), group(b.Reason)
	if ga != gb {
		return ga < gb
	}
	// A missing reservation counts as the decision's instant (At); without
	// one, as later than any real reservation.
	latest := time.Unix(math.MaxInt64-62135596800, 999_999_999).Add(time.Nanosecond) // beyond any real reservation
	reserved := func(d timebased.Decision) time.Time {
		switch {
		case !d.Candidate.Reserved.IsZero():
			return d.Candidate.Reserved
		case !d.At.IsZero():
			return d.At
		}
		return latest
	}
	ra, rb := reserved(a), reserved(b)
	switch a.Reason {
	case clsLowerPriority:
		if a.Candidate.Priority != b.Candidate.Priority {
			return a.Candidate.Priority < b.Candidate.Priority
		}
		if !ra.Equal(rb) {
			return ra.After(rb)
		}
	case clsExpired:
		if !ra.Equal(rb) {
			return ra.Before(rb)
		}
	case clsNewer:
		if !ra.Equal(rb) {
			return ra.After(rb)
		}
	default:
		if a.Candidate.Priority != b.Candidate.Priority {
			return a.Candidate.Priority < b.Candidate.Priority
		}
		if !ra.Equal(rb) {
			return ra.Before(rb)
		}
	}
	if a.Candidate.ID != b.Candidate.ID {
		return a.Candidate.ID < b.Candidate.ID
	}
	if a.Candidate.Priority != b.Candidate.Priority {
		return a.Candidate.Priority < b.Candidate.Priority
	}
	if !ra.Equal(rb) {
		return ra.Before(rb)
	}
	return a.Candidate.Evicted && !b.Candidate.Evicted
}

// tbGenDecision draws a decision of any class. Until does not take part in
// the order; drawing it makes a stable sort observable.
func tbGenDecision(t *rapid.T, label string) timebased.Decision {
	return timebased.Decision{
		Candidate: tbGenCandidate(t, label),
		Decision: eligibility.Decision{Reason: rapid.SampledFrom(tbClassLabels).Draw(t, label+".class"),
			Until: tbAt(rapid.IntRange(0, 3).Draw(t, label+".until"))},
		At: rapid.SampledFrom([]time.Time{{}, tbGenInstant(t, label+".at")}).Draw(t, label+".hasAt"),
	}
}

// tbCheckStrictWeak fails unless cmpf is a strict weak ordering on a, b, c.
func tbCheckStrictWeak[T any](t *rapid.T, cmpf func(a, b T) int, xs ...T) {
	for _, x := range xs {
		if cmpf(x, x) != 0 {
			t.Fatalf("not irreflexive on %+v", x)
		}
		for _, y := range xs {
			if cmp.Compare(cmpf(x, y), 0) != -cmp.Compare(cmpf(y, x), 0) {
				t.Fatalf("not antisymmetric on %+v, %+v", x, y)
			}
			for _, z := range xs {
				if cmpf(x, y) < 0 && cmpf(y, z) < 0 && cmpf(x, z) >= 0 {
					t.Fatalf("not transitive: %+v < %+v < %+v", x, y, z)
				}
				if cmpf(x, y) == 0 && cmpf(y, z) == 0 && cmpf(x, z) != 0 {
					t.Fatalf("incomparability not transitive: %+v ~ %+v ~ %+v", x, y, z)
				}
			}
		}
	}
}

func TestCandidateCompareStrictWeak(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := tbGenDecision(t, "a"), tbGenDecision(t, "b"), tbGenDecision(t, "c")
		tbCheckStrictWeak(t, timebased.Compare, a, b, c)
		// CandidateCompare agrees with the oracle's order.
		for _, x := range []timebased.Decision{a, b, c} {
			for _, y := range []timebased.Decision{a, b, c} {
				if (timebased.Compare(x, y) < 0) != tbOracleLess(x, y) {
					t.Fatalf("CandidateCompare(%+v, %+v) = %d, oracle less = %v", x, y, timebased.Compare(x, y), tbOracleLess(x, y))
				}
			}
		}
	})
}

// TestPreemptionCandidatesOracle: Candidates equals "classify each with the
// oracle, keep the preemptible ones, stable-sort by the oracle order" (Until
// is checked by TestPreemptionClassifyOracle), and CandidateSort equals a
// stable sort with CandidateCompare.
func TestPreemptionCandidatesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := tbGenConfig(t)
		p := timebased.Request{Priority: rapid.Int32Range(-1, 1).Draw(t, "p.prio"), Timestamp: tbGenInstant(t, "p.ts")}
		now := tbGenInstant(t, "now")
		n := rapid.IntRange(0, 30).Draw(t, "n")
		cands := make([]timebased.Candidate, n)
		for i := range cands {
			cands[i] = tbGenCandidate(t, "cand")
		}
		var want []timebased.Decision
		for _, c := range cands {
			if class := tbOracleClass(cfg, p, c, now); tbPreemptible(class) {
				want = append(want, timebased.Decision{Candidate: c, At: now, Decision: eligibility.Decision{Allowed: true, Reason: class}})
			}
		}
		sort.SliceStable(want, func(i, j int) bool { return tbOracleLess(want[i], want[j]) })
		got := candidates(cfg, p, cands, now)
		if diff := gocmp.Diff(want, got, cmpopts.IgnoreFields(timebased.Decision{}, "Until")); diff != "" {
			t.Fatalf("Candidates vs oracle (-want +got):\n%s", diff)
		}

		ds := make([]timebased.Decision, rapid.IntRange(0, 30).Draw(t, "m"))
		for i := range ds {
			ds[i] = tbGenDecision(t, "d")
		}
		wantDs := slices.Clone(ds)
		slices.SortStableFunc(wantDs, timebased.Compare)
		timebased.Sort(ds)
		if diff := gocmp.Diff(wantDs, ds); diff != "" {
			t.Fatalf("CandidateSort vs SortStableFunc(CandidateCompare) (-want +got):\n%s", diff)
		}
	})
}
