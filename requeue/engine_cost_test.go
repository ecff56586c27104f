package requeue_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// TestDefaultVictimCost pins the cost rule at its edges: resources × time
// since max(last checkpoint, start); unknown resources count 1; no time at
// all costs +Inf; a checkpoint after now is ignored (counted from Start); a
// start after now costs 0, as a start at now does.
func TestDefaultVictimCost(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	tests := []struct {
		name string
		v    requeue.Victim
		want float64
	}{
		{"resources × hours since start", requeue.Victim{Start: now.Add(-3 * time.Hour), Resources: 4}, 12},
		{"since the last checkpoint when it is later", requeue.Victim{Start: now.Add(-3 * time.Hour), LastCheckpoint: now.Add(-30 * time.Minute), Resources: 4}, 2},
		{"a checkpoint before the start is ignored", requeue.Victim{Start: now.Add(-1 * time.Hour), LastCheckpoint: now.Add(-5 * time.Hour), Resources: 2}, 2},
		{"a checkpoint at exactly now loses nothing", requeue.Victim{Start: now.Add(-1 * time.Hour), LastCheckpoint: now, Resources: 8}, 0},
		{"a checkpoint alone, without a start", requeue.Victim{LastCheckpoint: now.Add(-2 * time.Hour), Resources: 1}, 2},
		{"unknown resources count 1", requeue.Victim{Start: now.Add(-3 * time.Hour)}, 3},
		{"negative resources count 1", requeue.Victim{Start: now.Add(-3 * time.Hour), Resources: -5}, 3},
		{"NaN resources count 1", requeue.Victim{Start: now.Add(-3 * time.Hour), Resources: math.NaN()}, 3},
		{"a start in the future costs 0", requeue.Victim{Start: now.Add(time.Hour), Resources: 8}, 0},
		{"a start at now costs 0", requeue.Victim{Start: now, Resources: 8}, 0},
		{"a checkpoint after now is ignored: since the start", requeue.Victim{Start: now.Add(-3 * time.Hour), LastCheckpoint: now.Add(time.Nanosecond), Resources: 4}, 12},
		{"a checkpoint after now, no start: unknown, +Inf", requeue.Victim{LastCheckpoint: now.Add(time.Minute), Resources: 4}, math.Inf(1)},
		{"no start, no checkpoint: unknown, +Inf", requeue.Victim{Resources: 8}, math.Inf(1)},
	}
	for _, tc := range tests {
		if got := requeue.DefaultVictimCost(now, &tc.v); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestEngineFutureCheckpointNotCheapest: a victim whose LastCheckpoint lies
// after now is costed from its Start, so an old victim with a bogus future
// checkpoint is not taken before a young one.
func TestEngineFutureCheckpointNotCheapest(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	c := nodeCluster(t, 2, placedJob{"old", []int64{8}, []string{"n0"}}, placedJob{"young", []int64{8}, []string{"n1"}},
		placedJob{id: "c", gpus: []int64{8}})
	in := requeue.EngineInput{
		Nominations: noms("x", "old", "young"),
		Victims: []requeue.Victim{{ID: "old", Start: t0, LastCheckpoint: now.Add(time.Minute)},
			{ID: "young", Start: now.Add(-time.Hour)}},
		Contenders: []requeue.Contender{{ID: "c", Priority: 9}},
	}
	res, err := new(requeue.Engine).Run(now, in, c)
	if err != nil {
		t.Fatal(err)
	}
	if set, _ := engineSetFor(res, "c"); !cmp.Equal(set, []string{"young"}) {
		t.Fatalf("set for c = %v, want [young]: %+v", set, res.Outcomes)
	}
}

// TestEngineVictimCostReplaceable: a custom cost rule decides which set is
// committed; a NaN cost counts as +Inf (never preferred).
func TestEngineVictimCostReplaceable(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	run := func(cost func(time.Time, *requeue.Victim) float64) []requeue.Outcome {
		c := nodeCluster(t, 2, placedJob{"a", []int64{8}, []string{"n0"}}, placedJob{"b", []int64{8}, []string{"n1"}},
			placedJob{id: "big", gpus: []int64{8}})
		e, err := requeue.NewEngine(requeue.EngineConfig{VictimCost: cost})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(now, requeue.EngineInput{
			Nominations: noms("x", "a", "b"),
			Victims:     []requeue.Victim{{ID: "a", Start: t0}, {ID: "b", Start: t0.Add(time.Hour)}},
			Contenders:  []requeue.Contender{{ID: "big", Priority: 5}},
		}, c)
		if err != nil {
			t.Fatal(err)
		}
		return res.Outcomes
	}
	// The default rule: b ran an hour less, so it is evicted (its eviction
	// alone makes room: the search does not come to a).
	if d := cmp.Diff([]requeue.Outcome{committedAt(now, "b", "big"), keptFor("a", eligibility.Reason("no_contender"))}, run(nil), errPresence); d != "" {
		t.Errorf("default rule (-want +got):\n%s", d)
	}
	// A rule that prefers evicting a.
	preferA := func(_ time.Time, v *requeue.Victim) float64 {
		if v.ID == "a" {
			return 1
		}
		return 2
	}
	if d := cmp.Diff([]requeue.Outcome{committedAt(now, "a", "big"), keptFor("b", eligibility.Reason("no_contender"))}, run(preferA), errPresence); d != "" {
		t.Errorf("custom rule (-want +got):\n%s", d)
	}
	// NaN for b: b counts +Inf (last in victim order), a is evicted and no
	// search comes to b.
	nanB := func(_ time.Time, v *requeue.Victim) float64 {
		if v.ID == "b" {
			return math.NaN()
		}
		return 5
	}
	if d := cmp.Diff([]requeue.Outcome{committedAt(now, "a", "big"), keptFor("b", eligibility.Reason("no_contender"))}, run(nanB), errPresence); d != "" {
		t.Errorf("NaN cost (-want +got):\n%s", d)
	}
}

// TestMergeVictimCheckpointAndResources: of several entries for one job,
// the earliest known checkpoint and the largest resources win, in any
// order.
func TestMergeVictimCheckpointAndResources(t *testing.T) {
	a := requeue.Victim{ID: "v", LastCheckpoint: t0.Add(time.Hour), Resources: 2}
	b := requeue.Victim{ID: "v", LastCheckpoint: t0, Resources: math.NaN()}
	c := requeue.Victim{ID: "v", Resources: 4}
	want := requeue.Victim{ID: "v", LastCheckpoint: t0, Resources: 4}
	for _, order := range [][]requeue.Victim{{a, b, c}, {c, b, a}, {b, c, a}, {b, a, c}} {
		got := order[0]
		for _, v := range order[1:] {
			requeue.MergeVictim(&got, &v)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	}
}

// TestEngineReasonLabels pins the labels of the engine's reasons, with
// and without a constant: they are metric labels, and must not change.
func TestEngineReasonLabels(t *testing.T) {
	exported := map[eligibility.Reason]string{
		requeue.ReasonInvalidID:     "invalid_id",
		requeue.ReasonUnknownVictim: "unknown_victim",
		requeue.ReasonInvalidDelay:  "invalid_delay",
		requeue.ReasonEvictError:    "evict_error",
		requeue.ReasonFiltered:      "filtered",
	}
	for r, want := range exported {
		if r.String() != want || !validLabel(r) {
			t.Errorf("reason %q: label %q, want %q (valid %v)", string(r), r.String(), want, validLabel(r))
		}
	}
	unexported := []string{"committed", "no_contender", "no_fit", "cheaper_set", "lost_work",
		"set_search_bound", "max_victims", "max_attempts", "max_checks", "model_error",
		"rolled_back", "fit_without_eviction"}
	if len(requeue.Labels) != len(unexported) {
		t.Errorf("%d unexported reasons, want %d", len(requeue.Labels), len(unexported))
	}
	for _, want := range unexported {
		if r := requeue.Labels[want]; string(r) != want || !validLabel(r) {
			t.Errorf("reason %q: label %q (valid %v)", want, r, validLabel(r))
		}
	}
}
