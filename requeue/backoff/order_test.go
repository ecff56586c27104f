package backoff_test

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// orderT0 is the fixed origin of the queue-order tests.
var orderT0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

func orderMin(k int) time.Time { return orderT0.Add(time.Duration(k) * time.Minute) }

func TestQueueOrderTimestamp(t *testing.T) {
	plain := backoff.QueueEntry{ID: "a", Created: orderMin(0)}
	evicted := backoff.QueueEntry{ID: "b", Created: orderMin(0), TimeoutEvicted: orderMin(30)}
	tests := []struct {
		name     string
		strategy backoff.TimestampStrategy
		e        backoff.QueueEntry
		want     time.Time
	}{
		{"eviction strategy, never evicted: creation", backoff.TimestampEviction, plain, orderMin(0)},
		{"eviction strategy, timeout-evicted: eviction", backoff.TimestampEviction, evicted, orderMin(30)},
		{"creation strategy, never evicted: creation", backoff.TimestampCreation, plain, orderMin(0)},
		{"creation strategy, timeout-evicted: still creation", backoff.TimestampCreation, evicted, orderMin(0)},
		{"unknown strategy falls back to creation", backoff.TimestampStrategy(9), evicted, orderMin(0)},
		{"same-priority preemption, eviction strategy", backoff.TimestampEviction,
			backoff.QueueEntry{Created: orderMin(0), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"same-priority preemption, creation strategy too", backoff.TimestampCreation,
			backoff.QueueEntry{Created: orderMin(0), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"preempted after a timeout eviction: the later", backoff.TimestampEviction,
			backoff.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"timeout eviction after a preemption: the later", backoff.TimestampEviction,
			backoff.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(40), SamePriorityPreempted: orderMin(20)}, orderMin(40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := backoff.QueueOrder{Strategy: tt.strategy}.Timestamp(tt.e)
			if !got.Equal(tt.want) {
				t.Errorf("Timestamp = %v, want %v", got, tt.want)
			}
		})
	}
	if got := (backoff.QueueOrder{}).Timestamp(evicted); !got.Equal(orderMin(30)) {
		t.Errorf("zero QueueOrder Timestamp = %v, want the eviction time (Eviction is the default)", got)
	}
	// Instants from time.Now carry a monotonic reading (printed as "m=");
	// the queue-order timestamp does not.
	now := time.Now()
	for _, e := range []backoff.QueueEntry{{Created: now}, {TimeoutEvicted: now}, {AdmissionCheckEvicted: now}, {SamePriorityPreempted: now}} {
		if got := (backoff.QueueOrder{}).Timestamp(e); strings.Contains(got.String(), "m=") || !got.Equal(now) {
			t.Errorf("Timestamp(%+v) = %v, want %v without its monotonic reading", e, got, now.Round(0))
		}
	}
	restamp := backoff.QueueOrder{RestampReclaimPreempted: true}
	if got := restamp.Timestamp(backoff.QueueEntry{ReclaimPreempted: now}); strings.Contains(got.String(), "m=") || !got.Equal(now.Add(time.Millisecond)) {
		t.Errorf("Timestamp(reclaimed at now) = %v, want %v without its monotonic reading", got, now.Round(0).Add(time.Millisecond))
	}
}

// TestQueueOrderKueueRules checks the two rules of Kueue's
// Ordering.GetQueueOrderTimestamp (kubernetes-sigs/kueue pkg/workload) beyond
// the readiness timeout: a workload evicted by an admission check is ordered
// by that eviction under both strategies, and a workload preempted to
// reclaim borrowed quota is re-stamped 1ms after its preemption while the
// PrioritySortingWithinCohort gate is off. Also Kueue's precedence when
// several are set: timeout eviction (Eviction strategy), then admission
// check, then the reclaim preemption, then creation.
func TestQueueOrderKueueRules(t *testing.T) {
	ms := time.Millisecond
	ac := backoff.QueueEntry{Created: orderMin(0), AdmissionCheckEvicted: orderMin(30)}
	reclaim := backoff.QueueEntry{Created: orderMin(0), ReclaimPreempted: orderMin(20)}
	tests := []struct {
		name  string
		order backoff.QueueOrder
		e     backoff.QueueEntry
		want  time.Time
	}{
		{"admission check, eviction strategy", backoff.QueueOrder{}, ac, orderMin(30)},
		{"admission check, creation strategy too", backoff.QueueOrder{Strategy: backoff.TimestampCreation}, ac, orderMin(30)},
		{"reclaim preemption, gate on (default): creation", backoff.QueueOrder{}, reclaim, orderMin(0)},
		{"reclaim preemption, gate off: +1ms", backoff.QueueOrder{RestampReclaimPreempted: true}, reclaim, orderMin(20).Add(ms)},
		{"reclaim preemption, gate off, creation strategy: +1ms", backoff.QueueOrder{Strategy: backoff.TimestampCreation, RestampReclaimPreempted: true}, reclaim, orderMin(20).Add(ms)},
		{"timeout eviction before the admission check", backoff.QueueOrder{},
			backoff.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), AdmissionCheckEvicted: orderMin(30)}, orderMin(10)},
		{"creation strategy: the admission check", backoff.QueueOrder{Strategy: backoff.TimestampCreation},
			backoff.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), AdmissionCheckEvicted: orderMin(30)}, orderMin(30)},
		{"admission check before the reclaim preemption", backoff.QueueOrder{RestampReclaimPreempted: true},
			backoff.QueueEntry{Created: orderMin(0), AdmissionCheckEvicted: orderMin(5), ReclaimPreempted: orderMin(20)}, orderMin(5)},
		{"eviction before creation is still the eviction", backoff.QueueOrder{},
			backoff.QueueEntry{Created: orderMin(10), TimeoutEvicted: orderMin(5)}, orderMin(5)},
		{"same-priority preemption after all of Kueue's rules: the later", backoff.QueueOrder{RestampReclaimPreempted: true},
			backoff.QueueEntry{Created: orderMin(0), ReclaimPreempted: orderMin(20), SamePriorityPreempted: orderMin(40)}, orderMin(40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.order.Timestamp(tt.e); !got.Equal(tt.want) {
				t.Errorf("Timestamp = %v, want %v", got, tt.want)
			}
		})
	}
	// The reclaimed job goes behind its preemptor, admitted at the very
	// instant it was preempted (Kueue's epsilon): the preemptor was
	// created earlier, the victim re-stamped 1ms later.
	preemptor := backoff.QueueEntry{ID: "z", Created: orderMin(20)}
	victim := backoff.QueueEntry{ID: "a", Created: orderMin(0), ReclaimPreempted: orderMin(20)}
	if c := (backoff.QueueOrder{RestampReclaimPreempted: true}).Compare(preemptor, victim); c >= 0 {
		t.Errorf("gate off: preemptor vs reclaimed victim = %d, want the preemptor first", c)
	}
	if c := (backoff.QueueOrder{}).Compare(preemptor, victim); c <= 0 {
		t.Errorf("gate on: preemptor vs reclaimed victim = %d, want the older victim first", c)
	}
}

func TestQueueOrderCompare(t *testing.T) {
	tests := []struct {
		name     string
		strategy backoff.TimestampStrategy
		a, b     backoff.QueueEntry
		want     int // sign
	}{
		{"higher priority first", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "z", Priority: 10, Created: orderMin(9)}, backoff.QueueEntry{ID: "a", Priority: 1, Created: orderMin(0)}, -1},
		{"negative priorities", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "a", Priority: -5}, backoff.QueueEntry{ID: "b", Priority: -1}, 1},
		{"same priority: earlier creation first", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "z", Created: orderMin(1)}, backoff.QueueEntry{ID: "a", Created: orderMin(2)}, -1},
		{"1ns earlier first", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "z", Created: orderMin(1).Add(-1)}, backoff.QueueEntry{ID: "a", Created: orderMin(1)}, -1},
		{"eviction: timeout-evicted goes behind a later creation", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "a", Created: orderMin(0), TimeoutEvicted: orderMin(10)}, backoff.QueueEntry{ID: "b", Created: orderMin(5)}, 1},
		{"creation: timeout-evicted keeps its place", backoff.TimestampCreation,
			backoff.QueueEntry{ID: "a", Created: orderMin(0), TimeoutEvicted: orderMin(10)}, backoff.QueueEntry{ID: "b", Created: orderMin(5)}, -1},
		{"same priority and time: smaller ID first", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "job-2", Created: orderMin(1)}, backoff.QueueEntry{ID: "job-10", Created: orderMin(1)}, 1},
		{"same instant in another zone ties on time", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "a", Created: orderMin(1).In(time.FixedZone("X", 3600))}, backoff.QueueEntry{ID: "b", Created: orderMin(1)}, -1},
		{"complete tie", backoff.TimestampEviction,
			backoff.QueueEntry{ID: "a", Priority: 3, Created: orderMin(1)}, backoff.QueueEntry{ID: "a", Priority: 3, Created: orderMin(1)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := backoff.QueueOrder{Strategy: tt.strategy}
			if got := cmp.Compare(o.Compare(tt.a, tt.b), 0); got != tt.want {
				t.Errorf("sign(Compare(a, b)) = %d, want %d", got, tt.want)
			}
			if got := cmp.Compare(o.Compare(tt.b, tt.a), 0); got != -tt.want {
				t.Errorf("sign(Compare(b, a)) = %d, want %d", got, -tt.want)
			}
		})
	}
}

func TestQueueOrderSort(t *testing.T) {
	entries := []backoff.QueueEntry{
		{ID: "low-old", Priority: 0, Created: orderMin(0)},
		{ID: "high-new", Priority: 5, Created: orderMin(20)},
		{ID: "mid-timeout", Priority: 1, Created: orderMin(1), TimeoutEvicted: orderMin(15)},
		{ID: "mid-b", Priority: 1, Created: orderMin(10)},
		{ID: "mid-a", Priority: 1, Created: orderMin(10)},
		{ID: "high-old", Priority: 5, Created: orderMin(2)},
	}
	tests := []struct {
		strategy backoff.TimestampStrategy
		want     []string
	}{
		{backoff.TimestampEviction, []string{"high-old", "high-new", "mid-a", "mid-b", "mid-timeout", "low-old"}},
		{backoff.TimestampCreation, []string{"high-old", "high-new", "mid-timeout", "mid-a", "mid-b", "low-old"}},
	}
	for _, tt := range tests {
		t.Run(tt.strategy.String(), func(t *testing.T) {
			got := slices.Clone(entries)
			backoff.QueueOrder{Strategy: tt.strategy}.Sort(got)
			if diff := gocmp.Diff(tt.want, orderIDs(got)); diff != "" {
				t.Errorf("Sort order (-want +got):\n%s", diff)
			}
		})
	}
	backoff.QueueOrder{}.Sort(nil) // must not panic
}

func orderIDs(es []backoff.QueueEntry) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

func TestTimestampStrategyString(t *testing.T) {
	for s, want := range map[backoff.TimestampStrategy]string{
		backoff.TimestampEviction: "Eviction", backoff.TimestampCreation: "Creation", 2: "TimestampStrategy(2)",
	} {
		if got := s.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// orderGenEntry draws entries from small domains so ties on priority,
// timestamp and ID are frequent. Instants are whole minutes plus an
// offset that may differ below the second, or (rarely) within a second of
// the last instant time.Time can hold, in UTC or another zone. Created is
// sometimes unset (the zero time).
func orderGenEntry(t *rapid.T, label string) backoff.QueueEntry {
	at := func(max int, name string) time.Time {
		ts := orderMin(rapid.IntRange(0, max).Draw(t, name))
		if rapid.IntRange(0, 7).Draw(t, name+".nearLast") == 0 {
			ts = orderLast
		}
		ts = ts.Add(-rapid.SampledFrom([]time.Duration{0, 1, time.Millisecond - 1, time.Millisecond, time.Millisecond + 1, 500 * time.Millisecond, time.Second}).Draw(t, name+".offset"))
		if rapid.Bool().Draw(t, name+".zoned") {
			ts = ts.In(time.FixedZone("X", -5*3600))
		}
		return ts
	}
	e := backoff.QueueEntry{
		ID:       rapid.SampledFrom([]string{"a", "b", "c", "ab", ""}).Draw(t, label+".id"),
		Priority: rapid.Int32Range(-2, 2).Draw(t, label+".prio"),
	}
	if rapid.IntRange(0, 3).Draw(t, label+".createdSet") > 0 {
		e.Created = at(3, label+".created")
	}
	if rapid.Bool().Draw(t, label+".evicted") {
		e.TimeoutEvicted = at(5, label+".evictedAt")
	}
	if rapid.Bool().Draw(t, label+".checkEvicted") {
		e.AdmissionCheckEvicted = at(5, label+".checkEvictedAt")
	}
	if rapid.Bool().Draw(t, label+".reclaimed") {
		e.ReclaimPreempted = at(5, label+".reclaimedAt")
	}
	if rapid.Bool().Draw(t, label+".preempted") {
		e.SamePriorityPreempted = at(5, label+".preemptedAt")
	}
	return e
}

func orderGenOrder(t *rapid.T) backoff.QueueOrder {
	return backoff.QueueOrder{
		Strategy:                rapid.SampledFrom([]backoff.TimestampStrategy{backoff.TimestampEviction, backoff.TimestampCreation}).Draw(t, "strategy"),
		RestampReclaimPreempted: rapid.Bool().Draw(t, "restamp"),
	}
}

// orderCheckStrictWeak fails unless cmpf behaves as a strict weak ordering on
// a, b, c: irreflexive, antisymmetric, transitive, with transitive
// incomparability (ties).
func orderCheckStrictWeak[T any](t *rapid.T, cmpf func(a, b T) int, a, b, c T) {
	t.Helper()
	less := func(x, y T) bool { return cmpf(x, y) < 0 }
	tie := func(x, y T) bool { return cmpf(x, y) == 0 }
	for _, x := range []T{a, b, c} {
		if cmpf(x, x) != 0 {
			t.Fatalf("not irreflexive: compare(x, x) = %d for %+v", cmpf(x, x), x)
		}
	}
	xs := []T{a, b, c}
	for _, x := range xs {
		for _, y := range xs {
			if cmp.Compare(cmpf(x, y), 0) != -cmp.Compare(cmpf(y, x), 0) {
				t.Fatalf("not antisymmetric on %+v, %+v", x, y)
			}
			for _, z := range xs {
				if less(x, y) && less(y, z) && !less(x, z) {
					t.Fatalf("not transitive: %+v < %+v < %+v", x, y, z)
				}
				if tie(x, y) && tie(y, z) && !tie(x, z) {
					t.Fatalf("incomparability not transitive: %+v ~ %+v ~ %+v", x, y, z)
				}
			}
		}
	}
}

func TestQueueOrderStrictWeak(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := orderGenOrder(t)
		orderCheckStrictWeak(t, o.Compare, orderGenEntry(t, "a"), orderGenEntry(t, "b"), orderGenEntry(t, "c"))
	})
}

// TestQueueOrderSortOracle checks Timestamp, Sort and sorting with Compare
// against a naive oracle written from the rule, not from the
// implementation: a stable sort on the explicit key (−priority, chosen
// timestamp, ID).
func TestQueueOrderSortOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := orderGenOrder(t)
		n := rapid.IntRange(0, 40).Draw(t, "n")
		entries := make([]backoff.QueueEntry, n)
		for i := range entries {
			entries[i] = orderGenEntry(t, "e")
		}
		want := slices.Clone(entries)
		// The rule as written: Kueue's first applicable instant, in its
		// order — the readiness-timeout eviction (Eviction strategy only),
		// the admission-check eviction, the reclaim preemption plus 1ms
		// (gate off only; never past the last instant), the creation — or
		// the same-priority preemption if that is later or the rest is
		// unset. The zero time is unset and sorts after every instant.
		ts := func(e backoff.QueueEntry) time.Time {
			var kueue time.Time
			switch {
			case o.Strategy == backoff.TimestampEviction && !e.TimeoutEvicted.IsZero():
				kueue = e.TimeoutEvicted
			case !e.AdmissionCheckEvicted.IsZero():
				kueue = e.AdmissionCheckEvicted
			case o.RestampReclaimPreempted && !e.ReclaimPreempted.IsZero():
				kueue = orderLast
				if orderLast.Sub(e.ReclaimPreempted) >= time.Millisecond {
					kueue = e.ReclaimPreempted.Add(time.Millisecond)
				}
			default:
				kueue = e.Created
			}
			if sp := e.SamePriorityPreempted; !sp.IsZero() && (kueue.IsZero() || sp.After(kueue)) {
				return sp
			}
			return kueue
		}
		// before is the oracle's strict order on timestamps.
		before := func(a, b time.Time) bool {
			if a.IsZero() || b.IsZero() {
				return !a.IsZero() && b.IsZero()
			}
			return a.Before(b)
		}
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.Priority != b.Priority {
				return a.Priority > b.Priority
			}
			if !ts(a).Equal(ts(b)) {
				return before(ts(a), ts(b))
			}
			return a.ID < b.ID
		})
		for _, e := range entries {
			if got := o.Timestamp(e); !got.Equal(ts(e)) {
				t.Fatalf("Timestamp(%+v) = %v, oracle %v", e, got, ts(e))
			}
		}
		got := slices.Clone(entries)
		o.Sort(got)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Fatalf("Sort vs oracle (-want +got):\n%s", diff)
		}
		got = slices.Clone(entries)
		slices.SortStableFunc(got, o.Compare)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Fatalf("SortStableFunc(Compare) vs oracle (-want +got):\n%s", diff)
		}
	})
}
