package evictionbudget

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/internal/notbefore"
)

// Annotation is the default key of the eviction-record annotation
// that [Budget] reads and that the embedder writes on every
// committed eviction (the value [Budget.Record] returns), as it
// writes the not-before gate. It is system-managed: users do not set it.
const Annotation = "tenure.io/evictions"

// maxEvictions is the largest [Budget.Max]; it bounds the
// annotation's length and the work of a check.
const maxEvictions = 100

// Budget is a per-job eviction budget against thrash: a job that
// was evicted Max times within the last Window may not be evicted again
// until the oldest of those evictions is Window old. The evictions are read
// from the job's eviction-record annotation (key Key): the instants of its
// most recent evictions, oldest first, comma-separated, each in the
// not-before format (RFC3339, UTC, whole seconds rounded up), for example
//
//	2026-03-02T11:10:00Z,2026-03-02T11:40:00Z
//
// The zero value has no budget: every eviction is allowed, which is
// tenure's behaviour without the setting. It is a plain value, safe for
// concurrent use.
type Budget struct {
	// Max is N, the evictions allowed per window; 0 disables the budget.
	// At most 100.
	Max int
	// Window is W; must be positive when Max is set.
	Window time.Duration
	// Key is the annotation's key; "" means Annotation.
	Key string
}

// AnnotationKey returns the annotation key in use.
func (b Budget) AnnotationKey() string {
	if b.Key == "" {
		return Annotation
	}
	return b.Key
}

// Validate reports every problem of b at once, each message starting with
// "eligibility: ": Max outside [0, 100]; a Window that is not
// positive while Max is set, or negative.
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

// Check decides whether a job whose eviction-record annotation is record
// ("" when absent) may be evicted at now. An eviction at t counts while
// now < t + Window (it no longer counts at exactly t + Window):
//
//   - Max 0: allowed, [ReasonNoBudget];
//   - record invalid: allowed, [ReasonInvalidRecord], counted as no
//     eviction (the next [Budget.Record] replaces it). Invalid is
//     unparsable, not oldest first, or with an entry later than
//     now + Window + 1s (Record writes now rounded up to the second, so
//     it never writes one);
//   - fewer than Max evictions count at now: allowed,
//     [ReasonWithinBudget];
//   - Max or more count: denied, [ReasonExhausted], Until =
//     t + Window for the Max-th most recent eviction t, the instant the
//     count drops below Max.
//
// An entry later than now (at most Window + 1s later) counts as now. So
// the record, which the job's owner may be able to write, never denies an
// eviction for long: an invalid record denies nothing, and a future entry
// first seen at now denies until at most now + 2*Window + 1s. (The
// not-before gate's rule for bad values, an endless cooldown, is not
// bounded and is not used here.)
//
// Cost: O(len(record)); no allocation.
func (b Budget) Check(record string, now time.Time) eligibility.Decision {
	if b.Max <= 0 {
		return eligibility.Decision{Allowed: true, Reason: ReasonNoBudget}
	}
	nth, n, err := maxthRecent(record, b.Max, now, b.Window)
	switch {
	case err != nil:
		return eligibility.Decision{Allowed: true, Reason: ReasonInvalidRecord}
	case n < b.Max:
		return eligibility.Decision{Allowed: true, Reason: ReasonWithinBudget}
	}
	// Plain Add: the records are RFC3339 instants (years 0000 to 9999) and a
	// Duration spans under 300 years, far from the end of time.Time's range
	// where clock.AddSaturating would matter.
	if until := nth.Add(b.Window); now.Before(until) {
		return eligibility.Decision{Reason: ReasonExhausted, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: ReasonWithinBudget}
}

// CheckJob is [Budget.Check] on j's annotation under
// [Budget.AnnotationKey]; a nil j reads as a job without a record.
// No allocation.
func (b Budget) CheckJob(j *eligibility.Job, now time.Time) eligibility.Decision {
	if j == nil {
		return b.Check("", now)
	}
	return b.Check(j.Annotations[b.AnnotationKey()], now)
}

// maxthRecent parses record and returns its k-th most recent instant (k >=
// 1), capped at now, and the number of instants n; the instant is
// meaningful when n >= k. Since the record is oldest first, the k-th most
// recent is the entry at index n-k: a ring of the last k entries finds it in
// one pass. An entry later than now + window + 1s is an error.
func maxthRecent(record string, k int, now time.Time, window time.Duration) (time.Time, int, error) {
	var ring [maxEvictions]time.Time
	k = min(k, maxEvictions)
	n := 0
	var prev time.Time
	limit := now.Add(window).Add(time.Second)
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
		ring[n%k] = capAt(t, now)
	}
	if n < k {
		return time.Time{}, n, nil
	}
	return ring[n%k], n, nil // the entry at index n-k
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

// Record returns the eviction-record annotation to write when the job whose
// record is prev is evicted at now: the evictions of prev that still count
// at now (now < t + Window; an entry later than now counts as now), then
// now rounded up to the second, keeping the Max most recent. An invalid
// prev (see [Budget.Check]) is replaced: the job was evicted
// anyway, so its record starts again from this eviction. With Max 0 it
// returns prev unchanged. Cost: O(len(prev)); allocates the parsed
// instants and the result.
func (b Budget) Record(prev string, now time.Time) string {
	if b.Max <= 0 {
		return prev
	}
	ts, err := parseRecord(prev)
	limit := now.Add(b.Window).Add(time.Second)
	if err != nil || (len(ts) > 0 && ts[len(ts)-1].After(limit)) {
		ts = nil
	}
	keep := ts[:0]
	for _, t := range ts {
		if t = capAt(t, now); now.Before(t.Add(b.Window)) {
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

// The reasons of Check.
const (
	// ReasonNoBudget: no eviction budget is configured.
	ReasonNoBudget eligibility.Reason = "no_eviction_budget"
	// ReasonWithinBudget: the job was evicted fewer than the
	// budget's N times within the window.
	ReasonWithinBudget eligibility.Reason = "within_eviction_budget"
	// ReasonExhausted: the job was already evicted N times
	// within the window; Until is when the oldest of those leaves it.
	ReasonExhausted eligibility.Reason = "eviction_budget_exhausted"
	// ReasonInvalidRecord: the eviction-record annotation is
	// present but invalid (unparsable, not oldest first, or with an entry
	// more than the window plus one second in the future); allowed, counted
	// as no eviction, so that a record the job's owner wrote can never make
	// the job unevictable.
	ReasonInvalidRecord eligibility.Reason = "invalid_eviction_record"
)
