package requeue_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
)

var t0 = time.Date(2025, 1, 15, 10, 0, 0, 0, time.UTC)

// errPresence compares errors by presence only.
var errPresence = cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })

type fxJob struct {
	id      string
	gpus    []int64 // one task per entry
	running bool
}

// gpuCluster builds a cluster of nodes with 4 GPUs each and the given jobs,
// running ones placed by first fit in the order given.
func gpuCluster(t testing.TB, nodes int, jobs ...fxJob) *cluster.Model {
	t.Helper()
	c := gpuNodes(t, nodes, 4)
	for _, j := range jobs {
		addGPUJob(t, c, j.id, j.gpus)
		if j.running {
			if ok, err := c.Place(nil, j.id); !ok || err != nil {
				t.Fatalf("setup: place %s: %v %v", j.id, ok, err)
			}
		}
	}
	return c
}

// gpuNodes returns a cluster of nodes n0, n1, ... with gpus GPUs each and
// no jobs.
func gpuNodes(t testing.TB, nodes int, gpus int64) *cluster.Model {
	t.Helper()
	var ns []cluster.Node
	for i := range nodes {
		ns = append(ns, cluster.Node{Name: fmt.Sprintf("n%d", i), Capacity: cluster.Resources{GPU: gpus}})
	}
	c, err := cluster.New(ns)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// addGPUJob adds a pending job of one task per entry of gpus.
func addGPUJob(t testing.TB, c *cluster.Model, id string, gpus []int64) {
	t.Helper()
	var tasks []cluster.Resources
	for _, g := range gpus {
		tasks = append(tasks, cluster.Resources{GPU: g})
	}
	if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: tasks}); err != nil {
		t.Fatal(err)
	}
}

func noms(nominator string, jobs ...string) []requeue.VictimNomination {
	var out []requeue.VictimNomination
	for _, j := range jobs {
		out = append(out, requeue.VictimNomination{Job: j, Nominator: nominator})
	}
	return out
}

// denyFilter denies the listed victims until t0+1h with "minruntime_protected".
type denyFilter map[string]bool

func (d denyFilter) FilterVictim(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
	if d[v.ID] || d[v.ID+"/"+c.ID] {
		return eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}
	}
	return eligibility.Decision{Allowed: true}
}

func TestEnginePluginDocExample(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	full := []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}}
	victim := func(id string, prio int32) requeue.Victim {
		return requeue.Victim{ID: id, Priority: prio, Start: t0, Expected: 2 * time.Hour}
	}
	tests := []struct {
		name  string
		nodes int // default 2
		cfg   requeue.EngineConfig
		jobs  []fxJob
		in    requeue.EngineInput
		want  []requeue.Outcome
		state func(c *cluster.Model) error // extra check on the final model
		plain bool                         // hide the Cluster's Shaper and FitBounder
	}{
		{
			name: "no higher-priority contender: kept",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 10}}, // equal priority does not contend
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}}},
		},
		{
			name: "contender fits once the victim is gone: committed with not-before = now + requeue-delay",
			jobs: append(full, fxJob{id: "p", gpus: []int64{2, 2}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 10, Start: t0, Expected: 2 * time.Hour, RequeueDelay: 10 * time.Minute, HasRequeueDelay: true}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{
				Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
				Contenders: []string{"p"}, NotBefore: now.Add(10 * time.Minute), Annotation: "2025-01-15T13:10:00Z",
			}},
			state: func(c *cluster.Model) error {
				if running(c, "v") || !running(c, "p") {
					return fmt.Errorf("v running %v, p running %v", running(c, "v"), running(c, "p"))
				}
				return nil
			},
		},
		{
			name: "no requeue-delay: the engine default applies",
			cfg:  requeue.EngineConfig{DefaultDelay: 30 * time.Minute},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{
				Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
				Contenders: []string{"p"}, NotBefore: now.Add(30 * time.Minute), Annotation: "2025-01-15T13:30:00Z",
			}},
		},
		{
			name: "explicit zero requeue-delay beats the default",
			cfg:  requeue.EngineConfig{DefaultDelay: 30 * time.Minute},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 10, HasRequeueDelay: true}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{
				Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
				Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z",
			}},
		},
		{
			name: "during cooldown: skipped until not-before",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 10, NotBefore: now.Add(time.Nanosecond)}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: eligibility.ReasonCooldown, Until: now.Add(time.Nanosecond)}}},
		},
		{
			name: "at exactly not-before the cooldown is over",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 10, NotBefore: now}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{
				Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
				Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z",
			}},
		},
		{
			name: "contender does not fit even with the victim gone: kept, rolled back",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4, 4, 4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_fit")}}},
			state: func(c *cluster.Model) error {
				if !running(c, "v") || running(c, "p") {
					return errors.New("not rolled back")
				}
				return nil
			},
		},
		{
			name: "filter denies every contender: skipped with the filter's reason and Until",
			cfg:  requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"v": true}}},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}}},
		},
		{
			name: "filter denies one pair: the next contender is tried",
			cfg:  requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"v/p": true}}},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}, fxJob{id: "q", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("expectedruntime", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 12}, {ID: "q", Priority: 11}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"q"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"}},
		},
		{
			name: "nominators merged: sorted union, one outcome",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: append(append(noms("proportion", "v"), noms("expectedruntime", "v", "v")...), noms("proportion", "v")...),
				Victims:     []requeue.Victim{victim("v", 10)},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"expectedruntime", "proportion"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}}},
		},
		{
			name: "nominated job without victim data; victim not running in the model",
			jobs: append(full, fxJob{id: "idle", gpus: []int64{1}}, fxJob{id: "p", gpus: []int64{1}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "ghost", "idle"),
				Victims:     []requeue.Victim{victim("idle", 1)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{
				{Job: "ghost", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonUnknownVictim}},
				{Job: "idle", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonEvictError}, Err: errors.New("any")},
			},
		},
		{
			name: "negative requeue-delay is bad data",
			jobs: full,
			in: requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{{ID: "v", RequeueDelay: -time.Second, HasRequeueDelay: true}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonInvalidDelay}}},
		},
		{
			name: "a contender placed by an earlier commit is not placed again",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{victim("v", 1), victim("w", 2)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
				// v (lower priority) comes first and alone makes room:
				// no search comes to w.
				{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}},
			},
		},
		{
			name: "one eviction makes room for several contenders: the first one's set, the others fit in the room left",
			jobs: append(full, fxJob{id: "a", gpus: []int64{2}}, fxJob{id: "b", gpus: []int64{2}}, fxJob{id: "c", gpus: []int64{2}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{victim("v", 1), victim("w", 2)},
				Contenders:  []requeue.Contender{{ID: "c", Priority: 11, Queued: t0}, {ID: "b", Priority: 11, Queued: t0.Add(-time.Minute)}, {ID: "a", Priority: 12}},
			},
			want: []requeue.Outcome{
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"a"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
				{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"c"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
			},
		},
		{
			name:  "victim order: cheapest (least work lost), then lowest priority, then largest overrun, then ID",
			nodes: 4,
			jobs: []fxJob{
				{id: "hi", gpus: []int64{4}, running: true}, {id: "b", gpus: []int64{4}, running: true},
				{id: "a", gpus: []int64{4}, running: true}, {id: "old", gpus: []int64{4}, running: true},
				{id: "p", gpus: []int64{4}},
			},
			in: requeue.EngineInput{
				Nominations: noms("x", "hi", "b", "a", "old"),
				Victims: []requeue.Victim{
					// Every victim loses 2 hours of work.
					{ID: "hi", Priority: 5, Start: t0.Add(time.Hour)},
					{ID: "a", Priority: 1, Start: t0.Add(time.Hour), Expected: time.Hour},
					{ID: "b", Priority: 1, Start: t0.Add(time.Hour), Expected: time.Hour},
					{ID: "old", Priority: 1, Start: t0, LastCheckpoint: t0.Add(time.Hour), Expected: time.Hour}, // overrun 2h, a/b 1h
				},
				Contenders: []requeue.Contender{{ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{
				// One victim per node, each alone makes room: the search
				// goes in victim order (old, a, b, then hi, of the highest
				// priority) and the first, old, is enough.
				{Job: "old", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
				{Job: "a", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}},
				{Job: "b", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}},
				{Job: "hi", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}},
			},
		},
		{
			name: "MaxVictims: the rest is deferred",
			cfg:  requeue.EngineConfig{MaxVictims: 1},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}, fxJob{id: "q", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{victim("v", 1), victim("w", 2)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 11}, {ID: "q", Priority: 11}},
			},
			want: []requeue.Outcome{
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
				{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("max_victims")}},
			},
		},
		{
			// Without the Cluster's hints: 3 attempts without eviction
			// (nothing fits), then big and big2 in v's resources.
			name:  "MaxAttempts reached before the victim placed anything: it and the rest are deferred, rolled back",
			plain: true,
			cfg:   requeue.EngineConfig{MaxAttempts: 5},
			jobs:  append(full, fxJob{id: "big", gpus: []int64{8}}, fxJob{id: "big2", gpus: []int64{8}}, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{victim("v", 1), victim("w", 2)},
				Contenders:  []requeue.Contender{{ID: "big", Priority: 13}, {ID: "big2", Priority: 12}, {ID: "p", Priority: 11}},
			},
			want: []requeue.Outcome{
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("max_attempts")}},
				{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("max_attempts")}},
			},
			state: func(c *cluster.Model) error {
				if !running(c, "v") || !running(c, "w") {
					return errors.New("deferred victim left evicted")
				}
				return nil
			},
		},
		{
			name: "MaxAttempts reached after a commit: the rest deferred",
			cfg:  requeue.EngineConfig{MaxAttempts: 4}, // the first round (a, b), a's search (v), its commit
			jobs: append(full, fxJob{id: "a", gpus: []int64{2}}, fxJob{id: "b", gpus: []int64{2}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{victim("v", 1), victim("w", 2)},
				Contenders:  []requeue.Contender{{ID: "a", Priority: 12}, {ID: "b", Priority: 11}},
			},
			want: []requeue.Outcome{
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"a"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"},
				{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("max_attempts")}},
			},
		},
		{
			name: "CanContend replaces the strictly-higher rule",
			cfg:  requeue.EngineConfig{CanContend: func(v *requeue.Victim, c *requeue.Contender) bool { return c.Priority >= v.Priority }},
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{victim("v", 10)},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 10}},
			},
			want: []requeue.Outcome{{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"p"}, NotBefore: now, Annotation: "2025-01-15T13:00:00Z"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := gpuCluster(t, max(tc.nodes, 2), tc.jobs...)
			e, err := requeue.NewEngine(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var m requeue.Model = c
			if tc.plain {
				m = plainModel{c}
			}
			res, err := e.Run(now, tc.in, m)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, res.Outcomes, errPresence); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
			if err := clustercheck.Check(c); err != nil {
				t.Error(err)
			}
			if tc.state != nil {
				if err := tc.state(c); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestEngineNotBeforeRoundsUp(t *testing.T) {
	now := t0.Add(500 * time.Millisecond)
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: time.Minute})
	res, err := e.Run(now, requeue.EngineInput{
		Nominations: noms("x", "v"),
		Victims:     []requeue.Victim{{ID: "v"}},
		Contenders:  []requeue.Contender{{ID: "p", Priority: 1}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outcomes[0]
	if want := t0.Add(61 * time.Second); !o.NotBefore.Equal(want) || o.Annotation != "2025-01-15T10:01:01Z" {
		t.Fatalf("NotBefore %v %q, want %v (rounded up)", o.NotBefore, o.Annotation, want)
	}
}

func TestEngineContenderError(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{})
	res, err := e.Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
		Contenders:  []requeue.Contender{{ID: "ghost", Priority: 9}, {ID: "p", Priority: 5}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	want := requeue.EngineResult{
		Outcomes: []requeue.Outcome{
			{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: []string{"p"}, NotBefore: t0, Annotation: "2025-01-15T10:00:00Z"},
			// v (lower priority) comes first and is enough.
			{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}},
		},
		ContenderProblems: []requeue.ContenderProblem{{Contender: "ghost", Err: errors.New("unknown")}},
		// Fit tests: ghost once without eviction (Place fails: dropped for
		// the pass), p once without (the fit bound answers), once with v
		// evicted, once to commit the set.
		Attempts: 4,
		Places:   3,
		// The four fit tests, and v evicted twice (search, commit).
		Checks:  6,
		Commits: 1,
		Sets:    1,
	}
	if d := cmp.Diff(want, res, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestEngineConfigValidate(t *testing.T) {
	cfg := requeue.EngineConfig{DefaultDelay: -1, MaxVictims: -1, MaxAttempts: -1, Filters: []requeue.VictimFilter{nil},
		MaxFillFailures: -1, MaxChecks: -1, MaxLostWork: -1}
	_, err := requeue.NewEngine(cfg)
	if err == nil {
		t.Fatal("no error")
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 7 {
		t.Fatalf("want 7 joined errors, got %v", err)
	}
	for _, e := range joined.Unwrap() {
		if !strings.HasPrefix(e.Error(), "requeue: ") {
			t.Errorf("message without the package prefix: %v", e)
		}
	}
	for _, field := range []string{"MaxFillFailures", "MaxChecks", "MaxLostWork"} {
		if !strings.Contains(err.Error(), field) {
			t.Errorf("%s not reported: %v", field, err)
		}
	}
	if _, err := requeue.NewEngine(requeue.EngineConfig{MaxLostWork: math.NaN()}); err == nil || !strings.Contains(err.Error(), "MaxLostWork") {
		t.Errorf("NaN MaxLostWork: %v", err)
	}
	if _, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{}, nil); err == nil {
		t.Fatal("nil model accepted")
	}
	// The zero Engine works like NewEngine(EngineConfig{}).
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
	res, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}}, Contenders: []requeue.Contender{{ID: "p", Priority: 1}}}, c)
	if err != nil || len(res.Outcomes) != 1 || res.Outcomes[0].Kind != requeue.OutcomeCommitted {
		t.Fatalf("zero Engine: %+v, %v", res, err)
	}
}

// recorder is an Observer that logs events as strings.
type recorder []string

func (r *recorder) Observe(e eligibility.Event) {
	*r = append(*r, fmt.Sprintf("%s: %s %s %v %s", e.Source, e.Job, e.Other, e.Allowed, e.Reason))
}

func TestEngineObserver(t *testing.T) {
	var rec recorder
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "big", gpus: []int64{8, 1}}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{Observer: &rec})
	_, err := e.Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w", "cold"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}, {ID: "cold", NotBefore: t0.Add(time.Minute)}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 9}, {ID: "p", Priority: 5}},
	}, plainModel{c}) // without the Cluster's fit bound, so that big is tried and rolled back
	if err != nil {
		t.Fatal(err)
	}
	want := recorder{
		"requeue: cold  false cooldown",
		// big's set search: v evicted, big tried; then w too, big tried.
		"requeue: v big false rolled_back",
		"requeue: w big false rolled_back",
		// p's: v evicted, p fits; the set {v} is committed.
		"requeue: v  true committed",
		"requeue: w  false no_fit",
	}
	if d := cmp.Diff(want, rec); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

// TestEngineCustomVictimOrder: a custom VictimOrder decides between sets of
// equal cost, in one domain (the order of accumulation) and across domains
// (the order the domains are searched in, and the sets' comparison), so
// the answer is the same with the locality hint and without it. The two
// victims, one per node, cost the same (+Inf: no start).
func TestEngineCustomVictimOrder(t *testing.T) {
	for _, mv := range modelViews {
		c := gpuCluster(t, 2, fxJob{id: "low", gpus: []int64{4}, running: true}, fxJob{id: "high", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		// Highest priority first: the opposite of the default.
		e, _ := requeue.NewEngine(requeue.EngineConfig{VictimOrder: func(now time.Time, a, b *requeue.Victim) int { return int(b.Priority) - int(a.Priority) }})
		res, err := e.Run(t0, requeue.EngineInput{
			Nominations: noms("x", "low", "high"),
			Victims:     []requeue.Victim{{ID: "low", Priority: 1}, {ID: "high", Priority: 2}},
			Contenders:  []requeue.Contender{{ID: "p", Priority: 9}},
		}, mv.view(c))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Outcomes[0]; got.Job != "high" || got.Kind != requeue.OutcomeCommitted {
			t.Errorf("%s: first outcome %+v, want high committed", mv.name, got)
		}
	}
}

func TestVictimOverrun(t *testing.T) {
	tests := []struct {
		v    requeue.Victim
		want time.Duration
	}{
		{requeue.Victim{}, 0}, // unknown start
		{requeue.Victim{Start: t0, Expected: time.Hour}, 2 * time.Hour},
		{requeue.Victim{Start: t0.Add(3 * time.Hour), Expected: 0}, 0}, // exactly at expected
		{requeue.Victim{Start: t0.Add(4 * time.Hour), Expected: time.Hour}, -2 * time.Hour},
		{requeue.Victim{Start: time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC), Expected: -time.Duration(math.MaxInt64)}, math.MaxInt64},
		{requeue.Victim{Start: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), Expected: time.Duration(math.MaxInt64)}, math.MinInt64},
	}
	for _, tc := range tests {
		if got := tc.v.Overrun(t0.Add(3 * time.Hour)); got != tc.want {
			t.Errorf("%+v.Overrun = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// running reports whether job id has a task placed on c: a running job
// occupies at least one node.
func running(c *cluster.Model, id string) bool {
	for _, n := range c.Snapshot().Jobs[id] {
		if n != "" {
			return true
		}
	}
	return false
}

// placement returns the node of each of job id's tasks on c ("" for a
// pending task), or nil for an unknown job.
func placement(c *cluster.Model, id string) []string { return c.Snapshot().Jobs[id] }
