package requeue_test

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
)

// orderT0 is the fixed origin of the queue-order tests.
var orderT0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

func orderMin(k int) time.Time { return orderT0.Add(time.Duration(k) * time.Minute) }

func TestQueueOrderTimestamp(t *testing.T) {
	plain := requeue.QueueEntry{ID: "a", Created: orderMin(0)}
	evicted := requeue.QueueEntry{ID: "b", Created: orderMin(0), TimeoutEvicted: orderMin(30)}
	tests := []struct {
		name     string
		strategy requeue.TimestampStrategy
		e        requeue.QueueEntry
		want     time.Time
	}{
		{"eviction strategy, never evicted: creation", requeue.TimestampEviction, plain, orderMin(0)},
		{"eviction strategy, timeout-evicted: eviction", requeue.TimestampEviction, evicted, orderMin(30)},
		{"creation strategy, never evicted: creation", requeue.TimestampCreation, plain, orderMin(0)},
		{"creation strategy, timeout-evicted: still creation", requeue.TimestampCreation, evicted, orderMin(0)},
		{"unknown strategy falls back to creation", requeue.TimestampStrategy(9), evicted, orderMin(0)},
		{"same-priority preemption, eviction strategy", requeue.TimestampEviction,
			requeue.QueueEntry{Created: orderMin(0), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"same-priority preemption, creation strategy too", requeue.TimestampCreation,
			requeue.QueueEntry{Created: orderMin(0), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"preempted after a timeout eviction: the later", requeue.TimestampEviction,
			requeue.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), SamePriorityPreempted: orderMin(20)}, orderMin(20)},
		{"timeout eviction after a preemption: the later", requeue.TimestampEviction,
			requeue.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(40), SamePriorityPreempted: orderMin(20)}, orderMin(40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := requeue.QueueOrder{Strategy: tt.strategy}.Timestamp(tt.e)
			if !got.Equal(tt.want) {
				t.Errorf("Timestamp = %v, want %v", got, tt.want)
			}
		})
	}
	if got := (requeue.QueueOrder{}).Timestamp(evicted); !got.Equal(orderMin(30)) {
		t.Errorf("zero QueueOrder Timestamp = %v, want the eviction time (Eviction is the default)", got)
	}
	// Instants from time.Now carry a monotonic reading (printed as "m=");
	// the queue-order timestamp does not.
	now := time.Now()
	for _, e := range []requeue.QueueEntry{{Created: now}, {TimeoutEvicted: now}, {AdmissionCheckEvicted: now}, {SamePriorityPreempted: now}} {
		if got := (requeue.QueueOrder{}).Timestamp(e); strings.Contains(got.String(), "m=") || !got.Equal(now) {
			t.Errorf("Timestamp(%+v) = %v, want %v without its monotonic reading", e, got, now.Round(0))
		}
	}
	restamp := requeue.QueueOrder{RestampReclaimPreempted: true}
	if got := restamp.Timestamp(requeue.QueueEntry{ReclaimPreempted: now}); strings.Contains(got.String(), "m=") || !got.Equal(now.Add(time.Millisecond)) {
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
	ac := requeue.QueueEntry{Created: orderMin(0), AdmissionCheckEvicted: orderMin(30)}
	reclaim := requeue.QueueEntry{Created: orderMin(0), ReclaimPreempted: orderMin(20)}
	tests := []struct {
		name  string
		order requeue.QueueOrder
		e     requeue.QueueEntry
		want  time.Time
	}{
		{"admission check, eviction strategy", requeue.QueueOrder{}, ac, orderMin(30)},
		{"admission check, creation strategy too", requeue.QueueOrder{Strategy: requeue.TimestampCreation}, ac, orderMin(30)},
		{"reclaim preemption, gate on (default): creation", requeue.QueueOrder{}, reclaim, orderMin(0)},
		{"reclaim preemption, gate off: +1ms", requeue.QueueOrder{RestampReclaimPreempted: true}, reclaim, orderMin(20).Add(ms)},
		{"reclaim preemption, gate off, creation strategy: +1ms", requeue.QueueOrder{Strategy: requeue.TimestampCreation, RestampReclaimPreempted: true}, reclaim, orderMin(20).Add(ms)},
		{"timeout eviction before the admission check", requeue.QueueOrder{},
			requeue.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), AdmissionCheckEvicted: orderMin(30)}, orderMin(10)},
		{"creation strategy: the admission check", requeue.QueueOrder{Strategy: requeue.TimestampCreation},
			requeue.QueueEntry{Created: orderMin(0), TimeoutEvicted: orderMin(10), AdmissionCheckEvicted: orderMin(30)}, orderMin(30)},
		{"admission check before the reclaim preemption", requeue.QueueOrder{RestampReclaimPreempted: true},
			requeue.QueueEntry{Created: orderMin(0), AdmissionCheckEvicted: orderMin(5), ReclaimPreempted: orderMin(20)}, orderMin(5)},
		{"eviction before creation is still the eviction", requeue.QueueOrder{},
			requeue.QueueEntry{Created: orderMin(10), TimeoutEvicted: orderMin(5)}, orderMin(5)},
		{"same-priority preemption after all of Kueue's rules: the later", requeue.QueueOrder{RestampReclaimPreempted: true},
			requeue.QueueEntry{Created: orderMin(0), ReclaimPreempted: orderMin(20), SamePriorityPreempted: orderMin(40)}, orderMin(40)},
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
	preemptor := requeue.QueueEntry{ID: "z", Created: orderMin(20)}
	victim := requeue.QueueEntry{ID: "a", Created: orderMin(0), ReclaimPreempted: orderMin(20)}
	if c := (requeue.QueueOrder{RestampReclaimPreempted: true}).Compare(preemptor, victim); c >= 0 {
		t.Errorf("gate off: preemptor vs reclaimed victim = %d, want the preemptor first", c)
	}
	if c := (requeue.QueueOrder{}).Compare(preemptor, victim); c <= 0 {
		t.Errorf("gate on: preemptor vs reclaimed victim = %d, want the older victim first", c)
	}
}

func TestQueueOrderCompare(t *testing.T) {
	tests := []struct {
		name     string
		strategy requeue.TimestampStrategy
		a, b     requeue.QueueEntry
		want     int // sign
	}{
		{"higher priority first", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "z", Priority: 10, Created: orderMin(9)}, requeue.QueueEntry{ID: "a", Priority: 1, Created: orderMin(0)}, -1},
		{"negative priorities", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "a", Priority: -5}, requeue.QueueEntry{ID: "b", Priority: -1}, 1},
		{"same priority: earlier creation first", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "z", Created: orderMin(1)}, requeue.QueueEntry{ID: "a", Created: orderMin(2)}, -1},
		{"1ns earlier first", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "z", Created: orderMin(1).Add(-1)}, requeue.QueueEntry{ID: "a", Created: orderMin(1)}, -1},
		{"eviction: timeout-evicted goes behind a later creation", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "a", Created: orderMin(0), TimeoutEvicted: orderMin(10)}, requeue.QueueEntry{ID: "b", Created: orderMin(5)}, 1},
		{"creation: timeout-evicted keeps its place", requeue.TimestampCreation,
			requeue.QueueEntry{ID: "a", Created: orderMin(0), TimeoutEvicted: orderMin(10)}, requeue.QueueEntry{ID: "b", Created: orderMin(5)}, -1},
		{"same priority and time: smaller ID first", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "job-2", Created: orderMin(1)}, requeue.QueueEntry{ID: "job-10", Created: orderMin(1)}, 1},
		{"same instant in another zone ties on time", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "a", Created: orderMin(1).In(time.FixedZone("X", 3600))}, requeue.QueueEntry{ID: "b", Created: orderMin(1)}, -1},
		{"complete tie", requeue.TimestampEviction,
			requeue.QueueEntry{ID: "a", Priority: 3, Created: orderMin(1)}, requeue.QueueEntry{ID: "a", Priority: 3, Created: orderMin(1)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := requeue.QueueOrder{Strategy: tt.strategy}
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
	entries := []requeue.QueueEntry{
		{ID: "low-old", Priority: 0, Created: orderMin(0)},
		{ID: "high-new", Priority: 5, Created: orderMin(20)},
		{ID: "mid-timeout", Priority: 1, Created: orderMin(1), TimeoutEvicted: orderMin(15)},
		{ID: "mid-b", Priority: 1, Created: orderMin(10)},
		{ID: "mid-a", Priority: 1, Created: orderMin(10)},
		{ID: "high-old", Priority: 5, Created: orderMin(2)},
	}
	tests := []struct {
		strategy requeue.TimestampStrategy
		want     []string
	}{
		{requeue.TimestampEviction, []string{"high-old", "high-new", "mid-a", "mid-b", "mid-timeout", "low-old"}},
		{requeue.TimestampCreation, []string{"high-old", "high-new", "mid-timeout", "mid-a", "mid-b", "low-old"}},
	}
	for _, tt := range tests {
		t.Run(tt.strategy.String(), func(t *testing.T) {
			got := slices.Clone(entries)
			requeue.QueueOrder{Strategy: tt.strategy}.Sort(got)
			if diff := gocmp.Diff(tt.want, orderIDs(got)); diff != "" {
				t.Errorf("Sort order (-want +got):\n%s", diff)
			}
		})
	}
	requeue.QueueOrder{}.Sort(nil) // must not panic
}

func orderIDs(es []requeue.QueueEntry) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

func TestTimestampStrategyText(t *testing.T) {
	tests := []struct {
		in      string
		want    requeue.TimestampStrategy
		wantErr bool
	}{
		{"Eviction", requeue.TimestampEviction, false},
		{"Creation", requeue.TimestampCreation, false},
		{"creation", requeue.TimestampCreation, false},
		{"EVICTION", requeue.TimestampEviction, false},
		{"", requeue.TimestampEviction, false},
		{"Created", 0, true},
		{" Creation", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s := requeue.TimestampStrategy(7) // sentinel: unchanged on error
			err := s.UnmarshalText([]byte(tt.in))
			if tt.wantErr {
				if err == nil || !strings.HasPrefix(err.Error(), "requeue: ") || s != 7 {
					t.Errorf("UnmarshalText(%q) = %v, strategy %v; want a requeue: error and no change", tt.in, err, s)
				}
				return
			}
			if err != nil || s != tt.want {
				t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tt.in, s, err, tt.want)
			}
		})
	}
	if _, err := requeue.TimestampStrategy(2).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown strategy: want an error")
	}
	if got := requeue.TimestampStrategy(2).String(); got != "TimestampStrategy(2)" {
		t.Errorf("String() = %q", got)
	}
}

func FuzzTimestampStrategyText(f *testing.F) {
	for _, s := range []string{"Eviction", "Creation", "", "creation", "x", "Évíction"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var s requeue.TimestampStrategy
		if err := s.UnmarshalText([]byte(in)); err != nil {
			return
		}
		out, err := s.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText after a successful UnmarshalText: %v", err)
		}
		if in != "" && !strings.EqualFold(in, string(out)) {
			t.Fatalf("round trip %q -> %v -> %q", in, s, out)
		}
		var back requeue.TimestampStrategy
		if err := back.UnmarshalText(out); err != nil || back != s {
			t.Fatalf("re-parse %q = %v, %v; want %v", out, back, err, s)
		}
	})
}

// orderGenEntry draws entries from small domains so ties on priority,
// timestamp and ID are frequent. Instants are whole minutes plus an
// offset that may differ below the second, in UTC or another zone.
func orderGenEntry(t *rapid.T, label string) requeue.QueueEntry {
	at := func(max int, name string) time.Time {
		ts := orderMin(rapid.IntRange(0, max).Draw(t, name)).
			Add(rapid.SampledFrom([]time.Duration{0, 1, 500 * time.Millisecond, time.Second}).Draw(t, name+".offset"))
		if rapid.Bool().Draw(t, name+".zoned") {
			ts = ts.In(time.FixedZone("X", -5*3600))
		}
		return ts
	}
	e := requeue.QueueEntry{
		ID:       rapid.SampledFrom([]string{"a", "b", "c", "ab", ""}).Draw(t, label+".id"),
		Priority: rapid.Int32Range(-2, 2).Draw(t, label+".prio"),
		Created:  at(3, label+".created"),
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

func orderGenOrder(t *rapid.T) requeue.QueueOrder {
	return requeue.QueueOrder{
		Strategy:                rapid.SampledFrom([]requeue.TimestampStrategy{requeue.TimestampEviction, requeue.TimestampCreation}).Draw(t, "strategy"),
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
		entries := make([]requeue.QueueEntry, n)
		for i := range entries {
			entries[i] = orderGenEntry(t, "e")
		}
		want := slices.Clone(entries)
		// The rule as written: Kueue's first applicable instant, in its
		// order — the readiness-timeout eviction (Eviction strategy only),
		// the admission-check eviction, the reclaim preemption plus 1ms
		// (gate off only), the creation — or the same-priority preemption
		// if that is later.
		ts := func(e requeue.QueueEntry) time.Time {
			var kueue time.Time
			switch {
			case o.Strategy == requeue.TimestampEviction && !e.TimeoutEvicted.IsZero():
				kueue = e.TimeoutEvicted
			case !e.AdmissionCheckEvicted.IsZero():
				kueue = e.AdmissionCheckEvicted
			case o.RestampReclaimPreempted && !e.ReclaimPreempted.IsZero():
				kueue = e.ReclaimPreempted.Add(time.Millisecond)
			default:
				kueue = e.Created
			}
			if e.SamePriorityPreempted.After(kueue) {
				return e.SamePriorityPreempted
			}
			return kueue
		}
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.Priority != b.Priority {
				return a.Priority > b.Priority
			}
			if !ts(a).Equal(ts(b)) {
				return ts(a).Before(ts(b))
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
