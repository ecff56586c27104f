package tenure_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

var sessionNames = []string{"a", "b", "c", "d", "e", "f"}

// genParent draws a parent: mostly none or a queue of qs, now and then
// any name of the pool (an unknown parent, or a cycle).
func genParent(t *rapid.T, qs []tenure.Queue) string {
	if len(qs) > 0 && rapid.IntRange(0, 2).Draw(t, "known") > 0 {
		return qs[rapid.IntRange(0, len(qs)-1).Draw(t, "pi")].Name
	}
	if rapid.IntRange(0, 3).Draw(t, "top") > 0 {
		return ""
	}
	return rapid.SampledFrom(sessionNames).Draw(t, "parent")
}

// genQueue draws one queue over a small name pool, with a bad min-runtime
// string now and then.
func genQueue(t *rapid.T, qs []tenure.Queue) tenure.Queue {
	return tenure.Queue{Name: rapid.SampledFrom(sessionNames).Draw(t, "name"),
		Parent:            genParent(t, qs),
		PreemptMinRuntime: rapid.SampledFrom([]string{"", "", "0s", "10m", "1h", "10m", "1h", "5x"}).Draw(t, "preempt"),
		ReclaimMinRuntime: rapid.SampledFrom([]string{"", "", "0s", "20m", "2h"}).Draw(t, "reclaim")}
}

// mutate returns a changed copy of qs: shuffled (the same queues), one
// queue added, removed, re-parented or given other fields.
func mutate(t *rapid.T, qs []tenure.Queue) []tenure.Queue {
	qs = slices.Clone(qs)
	switch op := rapid.IntRange(0, 4).Draw(t, "op"); {
	case op == 0 || len(qs) == 0:
		qs = append(qs, genQueue(t, qs))
	case op == 1:
		i := rapid.IntRange(0, len(qs)-1).Draw(t, "i")
		qs = slices.Delete(qs, i, i+1)
	case op == 2:
		i := rapid.IntRange(0, len(qs)-1).Draw(t, "i")
		qs[i].Parent = genParent(t, qs)
	case op == 3:
		i := rapid.IntRange(0, len(qs)-1).Draw(t, "i")
		g := genQueue(t, qs)
		qs[i].PreemptMinRuntime, qs[i].ReclaimMinRuntime = g.PreemptMinRuntime, g.ReclaimMinRuntime
	default:
		perm := rapid.Permutation(qs).Draw(t, "perm")
		qs = perm
	}
	return qs
}

// sameDecisions fails when p and q answer any CheckVictim (both actions,
// every pair of queues, None and a stale ID included, three starts) or
// ValidateScenario differently.
func sameDecisions(t *rapid.T, p, q *tenure.Policy) {
	if p.Tree().IDLimit() != q.Tree().IDLimit() {
		t.Fatalf("trees of IDLimit %d and %d", p.Tree().IDLimit(), q.Tree().IDLimit())
	}
	ids := []queuetree.ID{queuetree.None, 1000}
	for id := queuetree.Root; p.Tree().Valid(id); id++ {
		ids = append(ids, id)
	}
	cp, cq := p.BeginAt(t0), q.BeginAt(t0)
	for _, a := range []runtime.Action{runtime.ActionPreempt, runtime.ActionReclaim} {
		for _, pre := range ids {
			for _, v := range ids {
				for _, ago := range []time.Duration{5 * time.Minute, 30 * time.Minute, 3 * time.Hour} {
					job := eligibility.Job{ID: "j", Queue: v, Start: t0.Add(-ago),
						Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 2, Active: 2}}}
					dp, dq := cp.CheckVictim(a, pre, &job), cq.CheckVictim(a, pre, &job)
					if diff := cmp.Diff(dq, dp); diff != "" {
						t.Fatalf("CheckVictim(%v, %d, %d, -%v) (-New +Update):\n%s", a, pre, v, ago, diff)
					}
					sc := []minruntime.Victim{{Job: &job, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}}}}
					sp, perr := cp.ValidateScenario(a, pre, sc)
					sq, qerr := cq.ValidateScenario(a, pre, sc)
					if diff := cmp.Diff(sq, sp); diff != "" || (perr == nil) != (qerr == nil) {
						t.Fatalf("ValidateScenario(%v, %d, %d, -%v) (-New +Update):\n%s %v %v", a, pre, v, ago, diff, qerr, perr)
					}
				}
			}
		}
	}
}

// TestUpdateQueuesEqualsNew: along a random sequence of queue lists, each
// a small change of the one before (some with problems), the Policy
// UpdateQueues returns decides exactly as tenure.New's on the same Config,
// with exactly New's error: a list with a problem gives both the Policy
// built from it repaired, and a scheduler goes on from there.
func TestUpdateQueuesEqualsNew(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := tenure.Config{
			MinRuntimeArgs: map[string]string{
				"defaultPreemptMinRuntime": rapid.SampledFrom([]string{"", "15m"}).Draw(t, "dp"),
				"reclaimResolveMethod":     rapid.SampledFrom([]string{"lca", "queue"}).Draw(t, "method")},
			FailOpenUnknownQueues: rapid.Bool().Draw(t, "failOpen"),
		}
		p, err := tenure.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var qs []tenure.Queue
		for range rapid.IntRange(1, 12).Draw(t, "steps") {
			qs = mutate(t, qs)
			cfg.Queues = qs
			want, werr := tenure.New(cfg)
			got, gerr := p.UpdateQueues(qs)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("%v: New error\n%v\nUpdateQueues error\n%v", qs, werr, gerr)
			}
			if got == nil || want == nil {
				t.Fatalf("%v: no Policy beside the error (New %p, UpdateQueues %p)", qs, want, got)
			}
			sameDecisions(t, got, want)
			p = got
		}
	})
}

// TestUpdateQueuesUnchanged: the same queues and settings, in any order,
// give p itself; a change of one min-runtime string gives a new Policy
// with its own tree, resolver and engine, and p unchanged.
func TestUpdateQueuesUnchanged(t *testing.T) {
	qs := []tenure.Queue{{Name: "org", ReclaimMinRuntime: "1h"}, {Name: "a", Parent: "org", PreemptMinRuntime: "10m"}, {Name: "b", Parent: "org"}}
	p, err := tenure.New(tenure.Config{Queues: qs})
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]tenure.Queue{qs, {qs[2], qs[0], qs[1]}} {
		if got, err := p.UpdateQueues(order); err != nil || got != p {
			t.Errorf("UpdateQueues(%v) = %p, %v; want p itself (%p)", order, got, err, p)
		}
		// The fast check (one lookup per queue against the recorded
		// strings) allocates its bit set and nothing else; a rebuild
		// allocates per queue.
		if n := testing.AllocsPerRun(20, func() { _, _ = p.UpdateQueues(order) }); n > 1 {
			t.Errorf("UpdateQueues of an unchanged list allocates %v times, want at most 1", n)
		}
	}
	changed := slices.Clone(qs)
	changed[2].PreemptMinRuntime = "5m"
	got, err := p.UpdateQueues(changed)
	if err != nil || got == p {
		t.Fatalf("changed setting: %p, %v", got, err)
	}
	if got.Tree() == p.Tree() || got.Resolver() == p.Resolver() || got.Engine() == p.Engine() {
		t.Error("a changed setting must replace the tree, the resolver and the engine")
	}
	b, _ := p.QueueID("b")
	if r := p.Resolver().Resolve(runtime.ActionPreempt, queuetree.None, b); r.Duration != 0 {
		t.Errorf("p was changed: %v", r)
	}
	if r := got.Resolver().Resolve(runtime.ActionPreempt, queuetree.None, b); r.Duration != 5*time.Minute {
		t.Errorf("new Policy: %v", r)
	}
}

// TestNewRepairs: a list with a duplicate, an orphan, an empty name and
// an unparsable min-runtime gives a usable Policy beside every problem, as
// queuetree.New and runtime.ParseConfig report them; UpdateQueues
// does the same for that list; a clean list afterwards gives New's
// decisions.
func TestNewRepairs(t *testing.T) {
	args := map[string]string{"defaultReclaimMinRuntime": "30m"}
	bad := []tenure.Queue{{Name: "a", PreemptMinRuntime: "1h"}, {Name: "a", PreemptMinRuntime: "2h"}, {Name: "o", Parent: "gone"},
		{Name: ""}, {Name: "x", PreemptMinRuntime: "-5m"}}
	got, err := tenure.New(tenure.Config{Queues: bad, MinRuntimeArgs: args})
	problems := problemsOf(err)
	if got == nil {
		t.Fatal("no Policy")
	}
	tree, treeErr := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "a"}, {Name: "o", Parent: "gone"}, {Name: ""}, {Name: "x"}})
	treeProblems := problemsOf(treeErr)
	// Tree: duplicate, orphan, empty name; settings: duplicate, empty name, -5m.
	if len(problems) != len(treeProblems)+3 {
		t.Errorf("%d problems, want %d:\n%v", len(problems), len(treeProblems)+3, errors.Join(problems...))
	}
	for _, want := range []string{`"a"`, `"gone"`, `"-5m"`, "empty name"} {
		if !strings.Contains(errors.Join(problems...).Error(), want) {
			t.Errorf("problems lack %s:\n%v", want, errors.Join(problems...))
		}
	}
	if got.Tree().IDLimit() != tree.IDLimit() {
		t.Errorf("tree with IDLimit %d, want %d", got.Tree().IDLimit(), tree.IDLimit())
	}
	a, _ := got.QueueID("a")
	x, _ := got.QueueID("x")
	if r := got.Resolver().Resolve(runtime.ActionPreempt, queuetree.None, a); r.Duration != time.Hour {
		t.Errorf("a: %v, want the first entry's 1h", r)
	}
	if r := got.Resolver().Resolve(runtime.ActionPreempt, queuetree.None, x); r.Duration != 0 || r.Source != queuetree.None {
		t.Errorf("x: %v, want the default (its bad value ignored)", r)
	}
	if np, uerr := got.UpdateQueues(bad); uerr == nil || uerr.Error() != err.Error() || np == nil || np == got {
		t.Errorf("UpdateQueues of the bad list: %p, %v; want a new repaired Policy and New's error", np, uerr)
	}
	clean := []tenure.Queue{{Name: "a", PreemptMinRuntime: "1h"}, {Name: "o"}}
	fixed, err := got.UpdateQueues(clean)
	if err != nil {
		t.Fatalf("clean list: %v", err)
	}
	want, err := tenure.New(tenure.Config{Queues: clean, MinRuntimeArgs: args})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) { sameDecisions(rt, fixed, want) })
	if again, err := fixed.UpdateQueues([]tenure.Queue{clean[1], clean[0]}); err != nil || again != fixed {
		t.Errorf("the clean list again: %p, %v; want the same Policy", again, err)
	}
}

// TestNewQueueProblems: a Config whose only problems are in its queues
// gives a usable Policy beside the problems; one with another problem
// gives nil and every problem, the queues' included; a clean Config gives
// a Policy reused for its list.
func TestNewQueueProblems(t *testing.T) {
	qs := []tenure.Queue{{Name: "a"}, {Name: "b", Parent: "gone", ReclaimMinRuntime: "1h"}}
	p, err := tenure.New(tenure.Config{Queues: qs})
	problems := problemsOf(err)
	if p == nil || len(problems) != 1 || !strings.Contains(problems[0].Error(), "gone") {
		t.Fatalf("orphan: %v, %v", p, problems)
	}
	if b, err := p.QueueID("b"); err != nil || p.Resolver().Resolve(runtime.ActionReclaim, b, b).Duration != time.Hour {
		t.Errorf("b not repaired as top-level with its 1h: %v", err)
	}
	p, err = tenure.New(tenure.Config{Queues: qs, Engine: requeue.EngineConfig{MaxVictims: -1}})
	problems = problemsOf(err)
	if p != nil || len(problems) != 2 {
		t.Fatalf("bad engine: %v, %v", p, problems)
	}
	if msg := errors.Join(problems...).Error(); !strings.Contains(msg, "gone") || !strings.Contains(msg, "MaxVictims") {
		t.Errorf("problems: %s", msg)
	}
	clean := tenure.Config{Queues: []tenure.Queue{{Name: "a", PreemptMinRuntime: "1h"}, {Name: "b", Parent: "a"}}}
	p, err = tenure.New(clean)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := p.UpdateQueues(clean.Queues); err != nil || again != p {
		t.Errorf("a clean Policy is not reused for its list: %p, %v", again, err)
	}
}

// TestUpdateQueuesNilPolicy: a nil or zero Policy gives an error, not a
// Policy that panics in its first cycle.
func TestUpdateQueuesNilPolicy(t *testing.T) {
	for _, p := range []*tenure.Policy{nil, {}} {
		qs := []tenure.Queue{{Name: "a"}}
		if np, err := p.UpdateQueues(qs); np != nil || err == nil || !strings.HasPrefix(err.Error(), "tenure: ") {
			t.Errorf("UpdateQueues of %p: %v, %v", p, np, err)
		}
	}
}

// TestUpdateQueuesOwnEngine: the Policy UpdateQueues returns runs its
// requeue pass with its own engine and eviction-budget records, and p's
// still decides under the old queues.
func TestUpdateQueuesOwnEngine(t *testing.T) {
	p, err := tenure.New(tenure.Config{
		Queues:         []tenure.Queue{{Name: "q", PreemptMinRuntime: "2h"}},
		EvictionBudget: evictionbudget.Budget{Max: 1, Window: time.Hour},
	})
	if err != nil {
		t.Fatal(err)
	}
	np, err := p.UpdateQueues([]tenure.Queue{{Name: "q", PreemptMinRuntime: "10m"}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.QueueID("q")
	for _, tc := range []struct {
		p    *tenure.Policy
		want requeue.OutcomeKind
	}{{p, requeue.OutcomeSkipped}, {np, requeue.OutcomeCommitted}} {
		v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"}}
		res, err := tc.p.BeginAt(t0).Requeue(tenure.RequeueInput{
			Running: []eligibility.Job{v}, Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: q}},
		}, protectedCluster(t))
		if err != nil || len(res.Engine.Outcomes) != 1 || res.Engine.Outcomes[0].Kind != tc.want {
			t.Errorf("%v: %+v, want %v", err, res.Engine.Outcomes, tc.want)
		}
		if tc.want == requeue.OutcomeCommitted && len(res.EvictionRecords) != 1 {
			t.Errorf("records: %v", res.EvictionRecords)
		}
	}
}

// TestUpdateQueuesConcurrentCycles: a Policy and the one UpdateQueues
// returned from it run requeue passes and checks at the same time, while
// another goroutine updates p again; each decides under its own queues
// (run with -race to check that they share no scratch state).
func TestUpdateQueuesConcurrentCycles(t *testing.T) {
	p, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "q", PreemptMinRuntime: "2h"}},
		EvictionBudget: evictionbudget.Budget{Max: 3, Window: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	np, err := p.UpdateQueues([]tenure.Queue{{Name: "q", PreemptMinRuntime: "10m"}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := p.QueueID("q")
	run := func(pol *tenure.Policy, want requeue.OutcomeKind, done chan<- error) {
		for range 50 {
			c := pol.BeginAt(t0)
			v := eligibility.Job{ID: "v", Queue: q, Priority: 1, Preemptible: true, Running: true, Start: t0.Add(-time.Hour),
				Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: "30m"},
				Subgroups:   []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 2}}}
			res, err := c.Requeue(tenure.RequeueInput{Running: []eligibility.Job{v},
				Contenders: []requeue.Contender{{ID: "hi", Priority: 9, Queue: q}}}, protectedCluster(t))
			if err != nil || len(res.Engine.Outcomes) != 1 || res.Engine.Outcomes[0].Kind != want {
				done <- fmt.Errorf("%v %+v, want %v", err, res.Engine.Outcomes, want)
				return
			}
			sc := []minruntime.Victim{{Job: &v, Tasks: []minruntime.Task{{Subgroup: "w", Active: true}}}}
			if _, err := c.ValidateScenario(runtime.ActionPreempt, q, sc); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}
	done := make(chan error, 3)
	go run(p, requeue.OutcomeSkipped, done)
	go run(np, requeue.OutcomeCommitted, done)
	go func() {
		for range 50 {
			if _, err := p.UpdateQueues([]tenure.Queue{{Name: "q", PreemptMinRuntime: "20m"}, {Name: "r"}}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 3 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// ExampleNew_repairs: a scheduler starts on a queue snapshot with
// problems: New reports them and builds the Policy from the list repaired.
func ExampleNew_repairs() {
	policy, err := tenure.New(tenure.Config{Queues: []tenure.Queue{
		{Name: "research", ReclaimMinRuntime: "2h"},
		{Name: "team", Parent: "org"}, // org does not exist (yet)
		{Name: "prod", PreemptMinRuntime: "-1m"},
	}})
	fmt.Println(err) // every problem, joined
	team, err := policy.QueueID("team")
	fmt.Println(team != 0, err, policy.Tree().Parent(team) == queuetree.Root)
	// Output:
	// tenure: config.queues[1].parentQueue: queuetree: queue "team" has unknown parent "org" (repaired: made top-level)
	// tenure: config.queues[2].preemptMinRuntime: runtime: queue "prod": preemptMinRuntime: invalid duration "-1m": negative durations are not allowed
	// true <nil> true
}

// ExamplePolicy_UpdateQueues: a scheduler reads its queues every session
// and updates the Policy: an unchanged list (in another order) costs a
// check and gives the same Policy; a changed one gives a new Policy.
func ExamplePolicy_UpdateQueues() {
	session1 := []tenure.Queue{{Name: "research", ReclaimMinRuntime: "2h"}, {Name: "prod"}}
	policy, err := tenure.New(tenure.Config{Queues: session1})
	if err != nil {
		fmt.Println(err)
		return
	}
	session2 := []tenure.Queue{{Name: "prod"}, {Name: "research", ReclaimMinRuntime: "2h"}} // map order
	next, err := policy.UpdateQueues(session2)
	fmt.Println("unchanged:", next == policy, err)

	session3 := append(session2, tenure.Queue{Name: "interactive", Parent: "prod", PreemptMinRuntime: "15m"})
	next, err = policy.UpdateQueues(session3)
	fmt.Println("changed:", next == policy, err)
	id, _ := next.QueueID("interactive")
	fmt.Println("interactive under", next.Tree().Name(next.Tree().Parent(id)))

	_, err = next.UpdateQueues(append(session3, tenure.Queue{Name: "lost", Parent: "nowhere"}))
	fmt.Println(err != nil)
	// Output:
	// unchanged: true <nil>
	// changed: false <nil>
	// interactive under prod
	// true
}

// problemsOf splits an errors.Join error into its errors; nil for nil.
func problemsOf(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err != nil {
		return []error{err}
	}
	return nil
}
