package requeuetest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

type requeuetestFailure = requeuetest.Failure

// testCluster builds the reference Cluster used to check the kit against:
// three nodes, running jobs that fill most of them, pending jobs of which
// some fit, some fit after an eviction and one never fits, gangs included.
func testCluster() *cluster.Model {
	gpu := func(n int64) cluster.Resources { return cluster.Resources{MilliCPU: 1000 * n, Memory: 8 * n, GPU: n} }
	c, err := cluster.New([]cluster.Node{
		{Name: "n0", Capacity: gpu(8)}, {Name: "n1", Capacity: gpu(8)}, {Name: "n2", Capacity: gpu(4)},
	})
	if err != nil {
		panic(err)
	}
	add := func(id string, run bool, min int, tasks ...cluster.Resources) {
		if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks, MinTasks: min}); err != nil {
			panic(err)
		}
		if run {
			if ok, err := c.Place(nil, id); !ok || err != nil {
				panic(fmt.Sprint("setup: ", id, ok, err))
			}
		}
	}
	add("r-big", true, 0, gpu(4), gpu(4))
	add("r-gang", true, 0, gpu(2), gpu(2), gpu(2))
	add("r-small", true, 0, gpu(1))
	add("r-elastic", true, 1, gpu(2), gpu(2))
	add("p-one", false, 0, gpu(1))
	add("p-four", false, 0, gpu(4))
	add("p-gang", false, 0, gpu(3), gpu(3))
	add("p-elastic", false, 2, gpu(2), gpu(2), gpu(2))
	add("p-never", false, 0, gpu(9))
	return c
}

var (
	clusterRunning = []string{"r-big", "r-gang", "r-small", "r-elastic"}
	clusterPending = []string{"p-one", "p-four", "p-gang", "p-elastic", "p-never"}
)

func clusterState(c *cluster.Model) string { return fmt.Sprint(c.Snapshot()) }

func TestReferenceClusterPasses(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		err := requeuetest.TestModel(testCluster, clusterState, clusterRunning, clusterPending,
			requeuetest.Options{Seed: seed, Sequences: 200, Steps: 80})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func TestCorrectModelsPass(t *testing.T) {
	if err := requeuetest.TestModel(func() *toy { return newToy("") }, toyState, toyRunning, toyPending); err != nil {
		t.Errorf("journaled toy: %v", err)
	}
	if err := requeuetest.TestModel(func() *txToy { return newTxToy("") }, txToyState, toyRunning, toyPending); err != nil {
		t.Errorf("transactional toy: %v", err)
	}
}

// TestBrokenModelsFail: each injected defect is reported, with a problem
// that names it.
func TestBrokenModelsFail(t *testing.T) {
	for _, tc := range []struct {
		bug, want string
	}{
		{"forget-evict-undo", "did not restore the state"},
		{"wrong-undo", "did not restore the state"},
		{"failed-place-leaks", "which failed and must record every change it made, did not restore the state"},
		{"place-running", "of a running job returned false and no error"},
		{"evict-unknown", "of a unknown job returned no error"},
		{"commits-journal", "committed or rolled back the journal it was given"},
		{"panic", "panic: toy: cannot evict b"},
	} {
		t.Run(tc.bug, func(t *testing.T) {
			err := requeuetest.TestModel(func() *toy { return newToy(tc.bug) }, toyState, toyRunning, toyPending)
			if got := problem(err); !strings.Contains(got, tc.want) {
				t.Fatalf("problem %q, want it to contain %q; error:\n%v", got, tc.want, err)
			}
		})
	}
}

// TestBrokenTransactionalModelsFail: savepoint defects are reported, on
// every seed tried.
func TestBrokenTransactionalModelsFail(t *testing.T) {
	tx := func(bug string) func(uint64) error {
		return func(seed uint64) error {
			return requeuetest.TestModel(func() *txToy { return newTxToy(bug) }, txToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed})
		}
	}
	for _, tc := range []struct {
		name, want string
		run        func(seed uint64) error
	}{
		// A length names a different state after a rollback and regrowth.
		{"index-savepoints", "invalidated by an earlier rollback succeeded but did not restore the state it marked", tx("index-savepoints")},
		{"length", "invalidated by an earlier rollback succeeded but did not restore the state it marked", func(seed uint64) error {
			return requeuetest.TestModel(newLogToy("length"), logToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed})
		}},
		{"unknown-resets", "never returned failed but changed the state", tx("unknown-resets")},
		{"tx-forgets-jobs", "did not restore the state", tx("tx-forgets-jobs")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				err := tc.run(seed)
				if got := problem(err); !strings.Contains(got, tc.want) {
					t.Fatalf("seed %d: problem %q, want it to contain %q; error:\n%v", seed, got, tc.want, err)
				}
			}
		})
	}
}

// TestFailureReproducible: the same seed gives the same failure, and the
// report says how to replay it and shows the states and the trace.
func TestFailureReproducible(t *testing.T) {
	run := func(seed uint64) error {
		return requeuetest.TestModel(func() *toy { return newToy("wrong-undo") }, toyState, toyRunning, toyPending, requeuetest.Options{Seed: seed})
	}
	a, b := run(7), run(7)
	if a == nil || a.Error() != b.Error() {
		t.Fatalf("seed 7 twice:\n%v\n---\n%v", a, b)
	}
	var f *requeuetest.Failure
	if !errors.As(a, &f) || f.Seed != 7 || len(f.Trace) == 0 || f.Step < 1 || f.Want == f.Got || f.Want == "" {
		t.Fatalf("Failure %+v", f)
	}
	for _, want := range []string{"requeuetest.Options{Seed: 7}", "want state:", "got state:", "operations:", f.Trace[len(f.Trace)-1]} {
		if !strings.Contains(a.Error(), want) {
			t.Errorf("report lacks %q:\n%v", want, a)
		}
	}
	// A replay with only the failing sequence's index reached finds it too.
	if c := requeuetest.TestModel(func() *toy { return newToy("wrong-undo") }, toyState, toyRunning, toyPending,
		requeuetest.Options{Seed: 7, Sequences: f.Sequence + 1}); c == nil || c.Error() != a.Error() {
		t.Fatalf("replay with Sequences(%d):\n%v", f.Sequence+1, c)
	}
}

func TestBadArguments(t *testing.T) {
	fresh := func() *toy { return newToy("") }
	n := 0
	drifting := func() *toy { n++; t := newToy(""); t.free += n; return t }
	for name, err := range map[string]error{
		"nil constructor":   requeuetest.TestModel(nil, toyState, toyRunning, toyPending),
		"nil state":         requeuetest.TestModel(fresh, nil, toyRunning, toyPending),
		"no jobs":           requeuetest.TestModel(fresh, toyState, nil, nil),
		"empty ID":          requeuetest.TestModel(fresh, toyState, []string{""}, toyPending),
		"duplicate":         requeuetest.TestModel(fresh, toyState, toyRunning, []string{"c", "a"}),
		"fresh models vary": requeuetest.TestModel(drifting, toyState, toyRunning, toyPending),
	} {
		var f *requeuetest.Failure
		if err == nil || errors.As(err, &f) || !strings.HasPrefix(err.Error(), "requeuetest: ") {
			t.Errorf("%s: %v, want a plain requeuetest: error", name, err)
		}
	}
	// Jobs declared with the wrong status make a Failure, not a panic, and
	// the failure points at the arguments.
	for _, args := range [][2][]string{
		{{"a", "c"}, {"b", "d", "e"}}, // c does not run, b does
		{{"a", "b", "c"}, {"d", "e"}}, // c does not run
		{{"a"}, {"b", "c", "d", "e"}}, // b runs
	} {
		err := requeuetest.TestModel(fresh, toyState, args[0], args[1])
		var f *requeuetest.Failure
		if !errors.As(err, &f) || !strings.Contains(f.Problem, `"b"`) && !strings.Contains(f.Problem, `"c"`) ||
			!strings.Contains(f.Problem, "the running and pending arguments may be wrong") {
			t.Errorf("running %q, pending %q: %v", args[0], args[1], err)
		}
	}
}

// TestFailureReplayNamesSteps: the replay hint names the Steps of the run
// when they are not the default, and replaying with it finds the same
// failure; the end-of-sequence rollback depends on Steps.
func TestFailureReplayNamesSteps(t *testing.T) {
	run := func(opts ...requeuetest.Options) error {
		return requeuetest.TestModel(func() *toy { return newToy("wrong-undo") }, toyState, toyRunning, toyPending, opts...)
	}
	a := run(requeuetest.Options{Seed: 3, Steps: 7})
	var f *requeuetest.Failure
	if !errors.As(a, &f) || f.Steps != 7 || !strings.Contains(a.Error(), "requeuetest.Options{Seed: 3, Steps: 7}") {
		t.Fatalf("Steps(7) run: %v", a)
	}
	if b := run(requeuetest.Options{Seed: 3, Steps: 7, Sequences: f.Sequence + 1}); b == nil || b.Error() != a.Error() {
		t.Fatalf("replay:\n%v\nwant:\n%v", b, a)
	}
	d := run(requeuetest.Options{Seed: 3})
	if !errors.As(d, &f) || f.Steps != 50 || !strings.Contains(d.Error(), "(replay with requeuetest.Options{Seed: 3})") {
		t.Fatalf("default run: %v", d)
	}
}

// BenchmarkTestModel is one default run (100 sequences of 50 operations) on
// the reference Cluster of nine jobs on three nodes, and on the toy model,
// whose state renders much faster: the rendering dominates.
func BenchmarkTestModel(b *testing.B) {
	b.Run("cluster", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := requeuetest.TestModel(testCluster, clusterState, clusterRunning, clusterPending); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("toy", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := requeuetest.TestModel(func() *toy { return newToy("") }, toyState, toyRunning, toyPending); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestTransactionalSchemesPass: savepoint schemes that are correct for the
// engine pass on several seeds, though some accept values the kit never got
// from Savepoint, or savepoints taken after the one a rollback went back to.
func TestTransactionalSchemesPass(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		for _, scheme := range []string{"serial", "length+rollbacks", "stack"} {
			if err := requeuetest.TestModel(newLogToy(scheme), logToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed}); err != nil {
				t.Errorf("%s, seed %d: %v", scheme, seed, err)
			}
		}
		if err := requeuetest.TestModel(newJournalToy, journalToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed}); err != nil {
			t.Errorf("journal checkpoints, seed %d: %v", seed, err)
		}
		if err := requeuetest.TestModel(newHybridToy, hybridToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed}); err != nil {
			t.Errorf("hybrid, seed %d: %v", seed, err)
		}
		// Savepoints that are copies of the state, never invalidated:
		// every rollback the model accepts is exact.
		if err := requeuetest.TestModel(func() *txToy { return newTxToy("no-invalidate") }, txToyState, toyRunning, toyPending, requeuetest.Options{Seed: seed}); err != nil {
			t.Errorf("copies never invalidated, seed %d: %v", seed, err)
		}
	}
}

// TestStrictSavepoints: with StrictSavepoints, a model must refuse every
// value that is not a valid savepoint. A counter that never repeats plus
// a stack of the valid savepoints passes, and so does a Statement-like
// length with a stack; the schemes that accept more fail, naming what they
// accepted.
func TestStrictSavepoints(t *testing.T) {
	strict := requeuetest.Options{StrictSavepoints: true}
	if err := requeuetest.TestModel(func() *txToy { return newTxToy("") }, txToyState, toyRunning, toyPending, strict); err != nil {
		t.Errorf("counter and stack: %v", err)
	}
	if err := requeuetest.TestModel(newLogToy("stack"), logToyState, toyRunning, toyPending, strict); err != nil {
		t.Errorf("length and stack: %v", err)
	}
	for _, tc := range []struct {
		name, want string
		run        func(...requeuetest.Options) error
	}{
		{"serial", "never returned returned no error (StrictSavepoints", func(o ...requeuetest.Options) error {
			return requeuetest.TestModel(newLogToy("serial"), logToyState, toyRunning, toyPending, o...)
		}},
		{"copies never invalidated", "invalidated by an earlier rollback returned no error (StrictSavepoints", func(o ...requeuetest.Options) error {
			return requeuetest.TestModel(func() *txToy { return newTxToy("no-invalidate") }, txToyState, toyRunning, toyPending, o...)
		}},
		{"journal checkpoints", "invalidated by an earlier rollback returned no error (StrictSavepoints", func(o ...requeuetest.Options) error {
			return requeuetest.TestModel(newJournalToy, journalToyState, toyRunning, toyPending, o...)
		}},
		// Accepts any value, changing nothing: without StrictSavepoints the
		// kit cannot tell, and ends the sequence there.
		{"unknown accepted", "never returned returned no error (StrictSavepoints", func(o ...requeuetest.Options) error {
			return requeuetest.TestModel(func() *txToy { return newTxToy("unknown-accepted") }, txToyState, toyRunning, toyPending, o...)
		}},
	} {
		if err := tc.run(); err != nil {
			t.Errorf("%s without StrictSavepoints: %v", tc.name, err)
		}
		if got := problem(tc.run(strict)); !strings.Contains(got, tc.want) {
			t.Errorf("%s with StrictSavepoints: problem %q, want it to contain %q", tc.name, got, tc.want)
		}
	}
}

// TestUnexercisedFixture: a fixture on which no Evict succeeds, no Place
// succeeds, or no Place fails to fit leaves a part of the contract
// unchecked; TestModel says which part, unless AllowUnexercised is given.
func TestUnexercisedFixture(t *testing.T) {
	fresh := func() *toy { return newToy("") }
	for _, tc := range []struct {
		name             string
		running, pending []string
		want, not        []string
	}{
		// Nothing pending: evicted jobs are placed again, and always fit.
		{"no pending job", []string{"a", "b"}, nil,
			[]string{"a Place that returns false"}, []string{"a successful Place", "a successful Evict"}},
		// d needs 1 GPU of the 3 free: it always fits.
		{"every job fits", []string{"a", "b"}, []string{"d"},
			[]string{"a Place that returns false"}, []string{"a successful Place", "a successful Evict"}},
		// e needs 6 GPUs and the running jobs are not listed: nothing runs.
		{"nothing runs", nil, []string{"e"},
			[]string{"a successful Evict", "a successful Place"}, []string{"a Place that returns false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := requeuetest.TestModel(fresh, toyState, tc.running, tc.pending)
			var f *requeuetest.Failure
			if err == nil || errors.As(err, &f) || !strings.HasPrefix(err.Error(), "requeuetest: ") {
				t.Fatalf("TestModel = %v, want a plain requeuetest: error", err)
			}
			for _, w := range append(tc.want, "AllowUnexercised") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error names %q, which was exercised:\n%v", w, err)
				}
			}
			if err := requeuetest.TestModel(fresh, toyState, tc.running, tc.pending, requeuetest.Options{AllowUnexercised: true}); err != nil {
				t.Errorf("with AllowUnexercised: %v", err)
			}
		})
	}
}

// TestHiddenCacheFails: a model whose Place caches its refusals (a cache
// the state text does not render and no undo step clears) goes on refusing
// a job once an eviction or a rollback makes room for it. Every other
// check passes it: the kit cannot know whether a job should fit. It is
// caught because it answers one Place two ways in one state; so is a fit
// bound that answers one MayFit question two ways in one state.
func TestHiddenCacheFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"Place with a cache", requeuetest.TestModel(func() *toy { return newToy("cache-refusals") }, toyState, toyRunning, toyPending)},
		// Sticky only after a refused first call: within one sequence the
		// state rarely comes back to the one of that call, across sequences
		// (each from a fresh model in the same state) it does.
		{"first refusal sticky", requeuetest.TestModel(func() *toy { return newToy("first-refusal-sticky") }, toyState, toyRunning, toyPending)},
		{"flaky MayFit", requeuetest.TestModel(hintedModel("mayfit-flaky"), hintedState, clusterRunning, clusterPending)},
	} {
		var f *requeuetest.Failure
		if !errors.As(tc.err, &f) {
			t.Fatalf("%s: got %v, want a *requeuetest.Failure", tc.name, tc.err)
		}
		if !strings.Contains(f.Problem, "the last time the model was in this state (the contract: in one state, the same answer") {
			t.Errorf("%s: problem %q does not say the answer changed in one state", tc.name, f.Problem)
		}
		method, _, _ := strings.Cut(f.Problem, "(")
		if len(f.Trace) == 0 || !strings.HasPrefix(f.Trace[len(f.Trace)-1], method+"(") {
			t.Errorf("%s: the trace does not end with the %s call that answered otherwise: %q", tc.name, method, f.Trace)
		}
		t.Logf("%s: %s", tc.name, f.Problem)
	}
}
