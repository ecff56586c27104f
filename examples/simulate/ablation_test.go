package main

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
)

// The simulator's shortcuts (failure memories, the requeue pass's
// victim filter and model hints) change no result: each test runs the CLI
// with and without one. The larger workloads and the whole trace under
// the requeue policy are long tests (TENURE_LONG_TESTS=1).

// The requeue pass gives the engine the model's hints (Shaper, FitBounder);
// they may not change a decision: every figure, and the engine's outcomes
// by kind and reason (deferrals by a bound included: a hint's answer
// counts against the bounds as the Place call it saves), is the same as
// with a model exposing only Evict and Place (sim.NoModelHints). Both
// paths run in every `go test`.
func TestRequeueModelHintsChangeNothing(t *testing.T) {
	for _, tc := range []struct {
		args []string
		long bool
	}{
		{[]string{"-synthetic", "-jobs", "1500", "-seed", "5", "-policies", "requeue"}, true},
		{[]string{"-synthetic", "-jobs", "400", "-seed", "5", "-policies", "requeue"}, false},
		{[]string{"-synthetic", "-jobs", "400", "-seed", "6", "-policies", "requeue", "-requeue-contenders", "higher"}, false},
		{[]string{"-synthetic", "-jobs", "400", "-seed", "7", "-policies", "requeue", "-checkpoint", "10m"}, false},
		{[]string{"-policies", "requeue", "-runs", "1"}, true},
	} {
		if tc.long && !longtest.Enabled() {
			t.Logf("%q: a long case, skipped (%s=1 runs it)", tc.args, longtest.Env)
			continue
		}
		args := tc.args
		hinted := runJSON(t, args...)
		sim.NoModelHints = true
		all := runJSON(t, args...)
		sim.NoModelHints = false
		f, a := hinted.Results[0], all.Results[0]
		if f.Evictions.Requeue == 0 && !slices.Contains(args, "higher") {
			t.Errorf("%q: no requeue evictions: the test shows nothing", args)
		}
		if noteOf(f.Notes, "requeue_outcomes") == nil {
			t.Errorf("%q: no requeue outcomes note", args)
		}
		if diff := cmp.Diff(noteOf(a.Notes, "requeue_outcomes"), noteOf(f.Notes, "requeue_outcomes")); diff != "" {
			t.Errorf("%q: the hints change the engine's outcomes (-without +with):\n%s", args, diff)
		}
		f.Notes, a.Notes = nil, nil
		f.Cycles, a.Cycles = 0, 0
		if diff := cmp.Diff(a, f); diff != "" {
			t.Errorf("%q: the hints change the pass (-without +with):\n%s", args, diff)
		}
	}
}

// noteOf returns the counts of the note of the given kind (nil if none).
func noteOf(notes []report.Note, kind string) map[string]int {
	for _, n := range notes {
		if n.Kind == kind {
			return n.Counts
		}
	}
	return nil
}

// The preemption search remembers nodes where a preemptor failed, and a
// cycle remembers the shapes that found no room or no victims; neither
// memory may change a decision (only the validator's tally of calls, and
// the number of cycles: a skipped attempt asks for no wake-up of its own,
// and a cycle at such an instant changes nothing).
func TestFailCacheChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		cache *bool
		args  []string
		long  bool
	}{
		{&sim.NoFailCache, []string{"-synthetic", "-jobs", "3000", "-seed", "2", "-policies", "minruntime,timebased", "-tail", "12h"}, true},
		{&sim.NoFailCache, []string{"-synthetic", "-jobs", "600", "-seed", "2", "-policies", "minruntime,timebased", "-tail", "12h"}, false},
		// High and normal jobs of one queue and shape: a High job's failure
		// must not stand for a normal one's (it lacks the normal job's
		// newer picks in other queues).
		{&sim.NoShapeCache, []string{"-synthetic", "-jobs", "1000", "-seed", "2", "-policies", "timebased", "-tail", "12h"}, false},
		{&sim.NoShapeCache, []string{"-policies", "priority,reserve-naive", "-runs", "1"}, true}, // the trace: many distinct shapes
	} {
		if tc.long && !longtest.Enabled() {
			t.Logf("%q: a long case, skipped (%s=1 runs it)", tc.args, longtest.Env)
			continue
		}
		cached := runJSON(t, tc.args...)
		*tc.cache = true
		plain := runJSON(t, tc.args...)
		*tc.cache = false
		for i := range cached.Results {
			c, p := cached.Results[i], plain.Results[i]
			c.Notes, p.Notes = nil, nil
			c.Cycles, p.Cycles = 0, 0
			// Fragmentation is a time average of float samples: equal up to
			// the last bits of the summation.
			if diff := cmp.Diff(p.Fragmentation, c.Fragmentation, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
				t.Errorf("%q %s: fragmentation with the failure memory (-without +with):\n%s", tc.args, c.Policy, diff)
			}
			c.Fragmentation, p.Fragmentation = report.Fragmentation{}, report.Fragmentation{}
			if diff := cmp.Diff(p, c); diff != "" {
				t.Errorf("%q %s: with the failure memory (-without +with):\n%s", tc.args, c.Policy, diff)
			}
		}
	}
}

// A cycle with no reservation held and no job that qualifies skips the
// reservation Plan (sim.PlanEveryCycle turns the shortcut off); it may not
// change a figure: the whole report is the same with and without it,
// with reservations taken in every case. -reserve-after 30s puts the
// instant a job qualifies on the cycle grid (the boundary: qualified at
// exactly After).
func TestReserveIdleShortcutChangesNothing(t *testing.T) {
	for _, args := range [][]string{
		{"-synthetic", "-jobs", "400", "-seed", "5", "-policies", "reserve"},
		{"-synthetic", "-jobs", "1500", "-seed", "3", "-policies", "reserve", "-reserve-min-gpus", "8"},
		{"-policies", "reserve", "-runs", "1"},
		{"-policies", "reserve", "-runs", "1", "-reserve-after", "30s", "-reservations", "2"},
	} {
		fast := runJSON(t, args...)
		sim.PlanEveryCycle = true
		plain := runJSON(t, args...)
		sim.PlanEveryCycle = false
		if noteOf(plain.Results[0].Notes, "reservations")["granted"] == 0 {
			t.Errorf("%q: no reservation taken: the test shows nothing", args)
		}
		if diff := cmp.Diff(plain, fast); diff != "" {
			t.Errorf("%q: the idle shortcut changes the report (-without +with):\n%s", args, diff)
		}
	}
}
