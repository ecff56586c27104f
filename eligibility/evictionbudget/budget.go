package evictionbudget

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/internal/notbefore"
)

// Annotation is the default key of the eviction record.
const Annotation = "tenure.io/evictions"

// maxEvictions is the largest [Budget.Max]; it bounds the
// annotation's length and the work of a check.
const maxEvictions = 100

// Budget is a per-job eviction budget: a job evicted Max times within the
// last Window may not be evicted again until the oldest of those is Window
// old. The zero value limits nothing. A plain value, safe for concurrent
// use.
type Budget struct {
	// Max is the evictions allowed per window, at most 100; 0 disables it.
	Max int
	// Window must be positive when Max is set.
	Window time.Duration
	// Key is the record's annotation key; "" means Annotation (the key in
	// use is cmp.Or(b.Key, Annotation)).
	Key string
}

// Validate reports every problem at once: Max outside [0, 100], a Window
// not positive with Max set, or negative.
func (b Budget) Validate() error {
	var errs []error
	if b.Max < 0 || b.Max > maxEvictions {
		errs = append(errs, configkey.Errorf("maxEvictions", "eligibility: eviction budget Max %d out of range [0, %d] (0 disables it)", b.Max, maxEvictions))
	}
	if b.Window < 0 || (b.Max > 0 && b.Window == 0) {
		errs = append(errs, configkey.Errorf("window", "eligibility: eviction budget Window must be positive with Max set, got %v", b.Window))
	}
	return errors.Join(errs...)
}

// errEvictionRecord is the error of an unparsable eviction record.
var errEvictionRecord = errors.New("not a comma-separated, oldest-first list of RFC3339 instants")

// errEvictionRecordFuture is the error of a record with an entry more than
// Window plus one second after now: [Budget.Record] never writes one.
var errEvictionRecordFuture = errors.New("an entry lies more than the window plus one second after now")

// Check decides whether a job whose record is record (its annotation at
// Key or [Annotation]; "" when absent) may be evicted at now. An eviction
// at t counts while now < t + Window (an entry after now counts too):
//
//   - Max 0: allowed, "no_eviction_budget";
//   - record invalid (unparsable, not oldest first, or an entry later than
//     now + Window + 1s): allowed, "invalid_eviction_record";
//   - fewer than Max count: allowed, "within_eviction_budget";
//   - otherwise denied, [ReasonExhausted], Until = t + Window for the
//     Max-th most recent eviction t.
//
// Until is the end of the denial: the same record is denied at every
// instant from now to just before Until and allowed at Until, also when t
// is after now (a record [Budget.Record] rounded up to the second, or
// one the job's owner wrote, which can deny for at most 2*Window + 1s
// after now), whatever the Window, so a scheduler that sleeps until Until
// wakes once. Sums saturate at clock.Last. O(len(record)), no allocation.
func (b Budget) Check(record string, now time.Time) eligibility.Decision {
	if b.Max <= 0 {
		return eligibility.Decision{Allowed: true, Reason: reasonNoBudget}
	}
	nth, n, err := maxthRecent(record, b.Max, now, b.Window)
	switch {
	case err != nil:
		return eligibility.Decision{Allowed: true, Reason: reasonInvalidRecord}
	case n < b.Max:
		return eligibility.Decision{Allowed: true, Reason: reasonWithinBudget}
	}
	if until := clock.AddSaturating(nth, b.Window); now.Before(until) {
		return eligibility.Decision{Reason: ReasonExhausted, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: reasonWithinBudget}
}

// maxthRecent parses record and returns its k-th most recent instant (k >=
// 1), and the number of instants n; the instant is meaningful when n >= k.
// Since the record is oldest first, the k-th most recent is the entry at
// index n-k: a ring of the last k entries finds it in one pass. An entry
// later than now + window + 1s is an error.
func maxthRecent(record string, k int, now time.Time, window time.Duration) (time.Time, int, error) {
	var ring [maxEvictions]time.Time
	k = min(k, maxEvictions)
	n := 0
	var prev time.Time
	limit := recordLimit(now, window)
	for rest := record; rest != ""; n++ {
		var field string
		field, rest, _ = strings.Cut(rest, ",")
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(field))
		if err != nil || (n > 0 && t.Before(prev)) {
			return time.Time{}, 0, errEvictionRecord
		}
		if t.After(limit) {
			return time.Time{}, 0, errEvictionRecordFuture
		}
		prev = t
		ring[n%k] = t
	}
	if n < k {
		return time.Time{}, n, nil
	}
	return ring[n%k], n, nil // the entry at index n-k
}

// recordLimit is the latest entry a valid record may hold at now: now +
// window + 1s, saturating.
func recordLimit(now time.Time, window time.Duration) time.Time {
	return clock.AddSaturating(clock.AddSaturating(now, window), time.Second)
}

// capAt returns t, or now when t is later than now.
func capAt(t, now time.Time) time.Time {
	if t.After(now) {
		return now
	}
	return t
}

// parseRecord parses an eviction-record annotation into its
// instants (UTC, oldest first); "" is no eviction. An unparsable value or
// one not oldest first is an error.
func parseRecord(record string) ([]time.Time, error) {
	var ts []time.Time
	for rest := record; rest != ""; {
		var field string
		field, rest, _ = strings.Cut(rest, ",")
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(field))
		if err != nil || (len(ts) > 0 && t.Before(ts[len(ts)-1])) {
			return nil, errEvictionRecord
		}
		ts = append(ts, t.UTC())
	}
	return ts, nil
}

// formatRecord formats instants as an eviction-record annotation:
// sorted oldest first, each with [eligibility.FormatNotBefore] (rounded up to the
// second, so a recorded eviction never counts for less than its window).
func formatRecord(ts []time.Time) string {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, time.Time.Compare)
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = eligibility.FormatNotBefore(t)
	}
	return strings.Join(parts, ",")
}

// Record returns the record to write when the job whose record is prev is
// evicted at now: the evictions of prev that still count (an entry after
// now as now), then now rounded up to the second, keeping the Max most
// recent; an invalid prev starts again. With Max 0 it returns prev.
// O(len(prev)); it allocates.
func (b Budget) Record(prev string, now time.Time) string {
	if b.Max <= 0 {
		return prev
	}
	ts, err := parseRecord(prev)
	limit := recordLimit(now, b.Window)
	if err != nil || (len(ts) > 0 && ts[len(ts)-1].After(limit)) {
		ts = nil
	}
	keep := ts[:0]
	for _, t := range ts {
		if t = capAt(t, now); now.Before(clock.AddSaturating(t, b.Window)) {
			keep = append(keep, t)
		}
	}
	keep = append(keep, notbefore.Ceil(now))
	slices.SortFunc(keep, time.Time.Compare)
	if len(keep) > b.Max {
		keep = keep[len(keep)-b.Max:]
	}
	return formatRecord(keep)
}

// The reasons of [Budget.Check].
const (
	// reasonNoBudget: Max is 0.
	reasonNoBudget eligibility.Reason = "no_eviction_budget"
	// reasonWithinBudget: fewer than Max evictions in the window.
	reasonWithinBudget eligibility.Reason = "within_eviction_budget"
	// ReasonExhausted: Max evictions in the window; Until is when the
	// oldest of them leaves it.
	ReasonExhausted eligibility.Reason = "eviction_budget_exhausted"
	// reasonInvalidRecord: the record is invalid; counted as no eviction.
	reasonInvalidRecord eligibility.Reason = "invalid_eviction_record"
)
