package timebased_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// TestCandidatesMissingReservationIsNow: Kueue's CandidatesOrdering counts a
// missing reservation as the current time, so a candidate reserved exactly
// at now ties with one without a reservation, and the ID decides. A
// reservation after now (clock skew) still orders after the missing one.
func TestCandidatesMissingReservationIsNow(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	cfg := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority}
	p := timebased.Request{Priority: 1, Timestamp: now.Add(-time.Hour)}
	queued := now.Add(-time.Minute) // newer than the preemptor
	cands := []timebased.Candidate{
		{ID: "b", Priority: 1, Queued: queued},                // no reservation: counts as now
		{ID: "a", Priority: 1, Queued: queued, Reserved: now}, // reserved exactly at now
		{ID: "c", Priority: 1, Queued: queued, Reserved: now.Add(-time.Second)},
		{ID: "d", Priority: 1, Queued: queued, Reserved: now.Add(time.Second)}, // in the future
	}
	got := ids(candidates(cfg, p, cands, now))
	// Newer: most recently reserved first; a and b tie at now, by ID.
	if want := []string{"d", "a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	// Lower priority: lowest priority first, then most recently reserved.
	for i := range cands {
		cands[i].Priority = 0
	}
	if got, want := ids(candidates(cfg, p, cands, now)), []string{"d", "a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("lower-priority order %v, want %v", got, want)
	}
	// Expired: longest-running first; a missing reservation is never
	// expired, so only the recorded ones qualify.
	cfg.MinAdmitDuration = explicit(time.Minute)
	for i := range cands {
		cands[i].Priority, cands[i].Reserved = 1, cands[i].Reserved.Add(-time.Hour)
	}
	if got, want := ids(candidates(cfg, p, cands, now)), []string{"b", "c", "a", "d"}; !slices.Equal(got, want) {
		// b's Reserved is zero minus an hour: a recorded instant before year 1.
		t.Errorf("expired order %v, want %v", got, want)
	}
}

func ids(ds []timebased.Decision) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Candidate.ID
	}
	return out
}

// TestCandidateOrderAtExtremes: CandidateCompare and CandidateSort follow
// time order for reservations at the ends of time.Time's range, where
// Time.Unix wraps.
func TestCandidateOrderAtExtremes(t *testing.T) {
	earliest := time.Unix(math.MinInt64, 0).Add(-math.MaxInt64)
	latest := time.Unix(math.MaxInt64-62135596800, 999_999_999)
	ts := []time.Time{earliest, earliest.Add(time.Second), time.Unix(math.MinInt64, 0),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), latest}
	for _, class := range []eligibility.Reason{clsExpired, clsNewer} {
		for i, a := range ts {
			for j, b := range ts {
				if i == j {
					continue
				}
				ds := []timebased.Decision{
					{Decision: eligibility.Decision{Reason: class}, Candidate: timebased.Candidate{ID: "a", Reserved: a}},
					{Decision: eligibility.Decision{Reason: class}, Candidate: timebased.Candidate{ID: "b", Reserved: b}},
				}
				aFirst := a.Before(b) == (class == clsExpired) // expired: earliest first; newer: latest first
				if got := timebased.Compare(ds[0], ds[1]) < 0; got != aFirst {
					t.Errorf("%v: Compare(reserved %v, %v) puts a first = %v, want %v", class, a, b, got, aFirst)
				}
				timebased.Sort(ds)
				if got := ds[0].Candidate.ID == "a"; got != aFirst {
					t.Errorf("%v: Sort(reserved %v, %v) puts a first = %v, want %v", class, a, b, got, aFirst)
				}
			}
		}
	}
}

// tbGenAnyInstant draws an instant anywhere in time.Time's range, the
// early end where Time.Unix wraps included, or the zero time.
func tbGenAnyInstant(t *rapid.T, label string) time.Time {
	switch rapid.IntRange(0, 3).Draw(t, label+".kind") {
	case 0:
		return time.Time{}
	case 1:
		return time.Unix(math.MinInt64, 0).Add(-time.Duration(rapid.Int64Range(0, math.MaxInt64).Draw(t, label+".back")))
	}
	return time.Unix(rapid.Int64Range(math.MinInt64, math.MaxInt64-62135596800).Draw(t, label+".sec"), rapid.Int64Range(0, 999_999_999).Draw(t, label+".nsec"))
}

// TestCandidateOrderAnywhere: CandidateSort equals a stable sort with
// CandidateCompare for reservations and decision instants anywhere in
// time.Time's range, and two recorded reservations of one class compare
// as time does.
func TestCandidateOrderAnywhere(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		class := rapid.SampledFrom([]eligibility.Reason{clsExpired, clsNewer, clsLowerPriority}).Draw(t, "class")
		ds := make([]timebased.Decision, rapid.IntRange(0, 10).Draw(t, "n"))
		for i := range ds {
			ds[i] = timebased.Decision{Decision: eligibility.Decision{Reason: class}, At: tbGenAnyInstant(t, "at"),
				Candidate: timebased.Candidate{ID: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "id"), Reserved: tbGenAnyInstant(t, "reserved")}}
		}
		for _, a := range ds {
			for _, b := range ds {
				ra, rb := a.Candidate.Reserved, b.Candidate.Reserved
				if ra.IsZero() || rb.IsZero() || ra.Equal(rb) {
					continue
				}
				wantAFirst := ra.Before(rb) == (class == clsExpired)
				if got := timebased.Compare(a, b) < 0; got != wantAFirst {
					t.Fatalf("%v: Compare(reserved %v, %v) a first = %v", class, ra, rb, got)
				}
			}
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, timebased.Compare)
		timebased.Sort(ds)
		if !slices.EqualFunc(ds, want, func(x, y timebased.Decision) bool { return x == y }) {
			t.Fatalf("CandidateSort %v, SortStableFunc %v", ids(ds), ids(want))
		}
	})
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
