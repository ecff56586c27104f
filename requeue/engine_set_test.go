package requeue_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// nodeCluster builds nodes of 8 GPUs and places each running job's tasks on
// the nodes named in on (one per task); pending jobs have no on.
type placedJob struct {
	id   string
	gpus []int64
	on   []string
}

func nodeCluster(t testing.TB, nodes int, jobs ...placedJob) *cluster.Model {
	t.Helper()
	c := gpuNodes(t, nodes, 8)
	for _, j := range jobs {
		addGPUJob(t, c, j.id, j.gpus)
		if j.on != nil {
			if err := c.Bind(nil, j.id, j.on); err != nil {
				t.Fatal(err)
			}
		}
	}
	return c
}

// modelViews are the ways the set tests see one Cluster: with every hint
// (shapes and the fit bound), with each alone, and plain. Hints change
// what a pass costs, never what it decides.
var modelViews = []struct {
	name string
	view func(*cluster.Model) requeue.Model
}{
	{"cluster", func(c *cluster.Model) requeue.Model { return c }},
	{"shapes", func(c *cluster.Model) requeue.Model { return shapesOnly{c} }},
	{"fit-bound", func(c *cluster.Model) requeue.Model { return boundOnly{c} }},
	{"plain", func(c *cluster.Model) requeue.Model { return plainModel{c} }},
}

// shapesOnly is the Cluster with its Shaper and no fit bound.
type shapesOnly struct{ c *cluster.Model }

func (m shapesOnly) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m shapesOnly) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m shapesOnly) Shape(job string) (string, bool)                   { return m.c.Shape(job) }

// boundOnly is the Cluster with its fit bound and no Shaper.
type boundOnly struct{ c *cluster.Model }

func (m boundOnly) Evict(j *requeue.Journal, id string) error         { return m.c.Evict(j, id) }
func (m boundOnly) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }
func (m boundOnly) MayFit(v string, jobs []string, fits []bool)       { m.c.MayFit(v, jobs, fits) }

// committedSet is the outcome of a victim of a committed set.
func committedSet(now time.Time, job, contender string, with ...string) requeue.Outcome {
	o := committedAt(now, job, contender)
	o.With = with
	return o
}

// TestEngineWholeNodeSet: a node of 8 GPUs runs two over-running 4-GPU
// jobs; a pending 8-GPU job of higher priority is served by evicting both,
// as one set. Without sets, both were kept with no_fit.
func TestEngineWholeNodeSet(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	for _, mv := range modelViews {
		t.Run(mv.name, func(t *testing.T) {
			c := nodeCluster(t, 1, placedJob{"a", []int64{4}, []string{"n0"}}, placedJob{"b", []int64{4}, []string{"n0"}},
				placedJob{id: "big", gpus: []int64{8}})
			in := requeue.EngineInput{
				Nominations: noms("x", "a", "b"),
				Victims:     []requeue.Victim{{ID: "a", Start: t0}, {ID: "b", Start: t0.Add(time.Hour)}},
				Contenders:  []requeue.Contender{{ID: "big", Priority: 5}},
			}
			res, err := new(requeue.Engine).Run(now, in, mv.view(c))
			if err != nil {
				t.Fatal(err)
			}
			// b has run less, so it is cheaper: accumulated first.
			want := []requeue.Outcome{committedSet(now, "b", "big", "a"), committedSet(now, "a", "big", "b")}
			if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
			if !running(c, "big") || running(c, "a") || running(c, "b") || res.Sets != 1 || res.Commits != 2 {
				t.Errorf("big %v a %v b %v, sets %d commits %d", running(c, "big"), running(c, "a"), running(c, "b"), res.Sets, res.Commits)
			}
		})
	}
}

// TestEngineMultiNodeGang: a gang of two 8-GPU tasks needs two whole nodes,
// each running two 4-GPU victims; the third node's victim is not needed.
func TestEngineMultiNodeGang(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	for _, mv := range modelViews {
		t.Run(mv.name, func(t *testing.T) {
			c := nodeCluster(t, 3,
				placedJob{"a1", []int64{4}, []string{"n0"}}, placedJob{"a2", []int64{4}, []string{"n0"}},
				placedJob{"b1", []int64{4}, []string{"n1"}}, placedJob{"b2", []int64{4}, []string{"n1"}},
				placedJob{"c1", []int64{8}, []string{"n2"}},
				placedJob{id: "gang", gpus: []int64{8, 8}})
			in := requeue.EngineInput{
				Nominations: noms("x", "a1", "a2", "b1", "b2", "c1"),
				Victims: []requeue.Victim{{ID: "a1", Start: t0}, {ID: "a2", Start: t0}, {ID: "b1", Start: t0}, {ID: "b2", Start: t0},
					{ID: "c1", Start: t0.Add(-10 * time.Hour)}}, // c1 would lose the most work
				Contenders: []requeue.Contender{{ID: "gang", Priority: 5}},
			}
			res, err := new(requeue.Engine).Run(now, in, mv.view(c))
			if err != nil {
				t.Fatal(err)
			}
			if !running(c, "gang") || !running(c, "c1") || res.Commits != 4 || res.Sets != 1 {
				t.Fatalf("gang %v c1 %v, commits %d sets %d: %+v", running(c, "gang"), running(c, "c1"), res.Commits, res.Sets, res.Outcomes)
			}
			for _, o := range res.Outcomes {
				switch {
				case o.Job == "c1":
					if o.Kind != requeue.OutcomeKept {
						t.Errorf("c1: %+v", o)
					}
				case o.Kind != requeue.OutcomeCommitted || len(o.With) != 3 || o.Contenders[0] != "gang":
					t.Errorf("%s: %+v", o.Job, o)
				}
			}
		})
	}
}

// TestEngineIrreducibleAndCheapest: of two nodes where an 8-GPU job fits
// once its victims are gone, the one losing the least work is chosen, and
// a victim whose eviction the contender does not need is reprieved.
func TestEngineIrreducibleAndCheapest(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	c := nodeCluster(t, 2,
		// n0: 4+4 GPUs of long-running jobs (80 GPU-hours lost).
		placedJob{"old1", []int64{4}, []string{"n0"}}, placedJob{"old2", []int64{4}, []string{"n0"}},
		// n1: 2+2+4 GPUs; tiny runs first in cost order but holds no room
		// the contender needs once the others... all three are needed.
		placedJob{"y1", []int64{2}, []string{"n1"}}, placedJob{"y2", []int64{2}, []string{"n1"}}, placedJob{"y3", []int64{4}, []string{"n1"}},
		placedJob{id: "big", gpus: []int64{8}}, placedJob{id: "half", gpus: []int64{4}})
	in := requeue.EngineInput{
		Nominations: noms("x", "old1", "old2", "y1", "y2", "y3"),
		Victims: []requeue.Victim{
			{ID: "old1", Start: t0, Resources: 4}, {ID: "old2", Start: t0, Resources: 4},
			// y1..y3 checkpointed an hour ago: 8 GPU-hours in all.
			{ID: "y1", Start: t0, LastCheckpoint: now.Add(-time.Hour), Resources: 2},
			{ID: "y2", Start: t0, LastCheckpoint: now.Add(-time.Hour), Resources: 2},
			{ID: "y3", Start: t0, LastCheckpoint: now.Add(-time.Hour), Resources: 4},
		},
		Contenders: []requeue.Contender{{ID: "big", Priority: 5}, {ID: "half", Priority: 4}},
	}
	res, err := new(requeue.Engine).Run(now, in, plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]requeue.OutcomeKind{}
	for _, o := range res.Outcomes {
		kinds[o.Job] = o.Kind
	}
	// big takes n1 (8 GPU-hours against 80); half then needs one 4-GPU
	// victim of n0: the set {old1} (4 GPUs), not both.
	want := map[string]requeue.OutcomeKind{"y1": requeue.OutcomeCommitted, "y2": requeue.OutcomeCommitted, "y3": requeue.OutcomeCommitted,
		"old1": requeue.OutcomeCommitted, "old2": requeue.OutcomeKept}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Errorf("kinds (-want +got):\n%s\n%+v", d, res.Outcomes)
	}
}

// TestEngineCheaperSetKept: two nodes can each host the contender; the
// search goes cheapest first, the cheap victim alone makes room, and no
// search comes to the dear one (no_contender). A victim the search looked
// at below its set is kept with cheaper_set: here the 2-GPU victim next to
// the dear one on n0, cheaper than the dear one, evicted and not needed.
func TestEngineCheaperSetKept(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	c := nodeCluster(t, 2, placedJob{"dear", []int64{8}, []string{"n0"}}, placedJob{"cheap", []int64{8}, []string{"n1"}},
		placedJob{id: "big", gpus: []int64{8}})
	in := requeue.EngineInput{
		Nominations: noms("x", "dear", "cheap"),
		Victims:     []requeue.Victim{{ID: "dear", Start: t0}, {ID: "cheap", Start: t0, LastCheckpoint: now.Add(-time.Minute)}},
		Contenders:  []requeue.Contender{{ID: "big", Priority: 5}},
	}
	res, err := new(requeue.Engine).Run(now, in, plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{committedAt(now, "cheap", "big"), keptFor("dear", eligibility.Reason("no_contender"))}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	// n0: small (2 GPUs, cheapest) and mid (6 GPUs); n1: whole (8 GPUs,
	// dearest). A 6-GPU contender: the shortest fitting prefix is small,
	// mid; mid alone is enough. small was looked at and is kept with
	// cheaper_set; whole is never reached.
	c = nodeCluster(t, 2, placedJob{"small", []int64{2}, []string{"n0"}}, placedJob{"mid", []int64{6}, []string{"n0"}},
		placedJob{"whole", []int64{8}, []string{"n1"}}, placedJob{id: "six", gpus: []int64{6}})
	in = requeue.EngineInput{
		Nominations: noms("x", "small", "mid", "whole"),
		Victims: []requeue.Victim{{ID: "small", Start: now.Add(-time.Hour)}, {ID: "mid", Start: now.Add(-2 * time.Hour)},
			{ID: "whole", Start: t0}},
		Contenders: []requeue.Contender{{ID: "six", Priority: 5}},
	}
	res, err = new(requeue.Engine).Run(now, in, plainModel{c})
	if err != nil {
		t.Fatal(err)
	}
	want = []requeue.Outcome{committedAt(now, "mid", "six"), keptFor("small", eligibility.Reason("cheaper_set")), keptFor("whole", eligibility.Reason("no_contender"))}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Errorf("a victim looked at: outcomes (-want +got):\n%s", d)
	}
}

// TestEngineCheaperSetOnlyForAllowedSets: a victim reprieved from a set
// that a filter then denies was in no set that could serve the contender,
// so it is not kept with cheaper_set when another set serves it. On n0, r
// (2 GPUs) and d (4 GPUs, protected from c) are c's cheapest victims: with
// both gone c fits, without r too, so r is reprieved; then d is denied and
// r alone makes no room. The search starts again without d: r and w let
// c fit, and w alone does: r is kept with cheaper_set (the same set
// without it served c), with every view of the model.
func TestEngineCheaperSetOnlyForAllowedSets(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	for _, mv := range modelViews {
		t.Run(mv.name, func(t *testing.T) {
			c := nodeCluster(t, 2,
				placedJob{"r", []int64{2}, []string{"n0"}}, placedJob{"d", []int64{4}, []string{"n0"}}, placedJob{"z", []int64{2}, []string{"n0"}},
				placedJob{"w", []int64{4}, []string{"n1"}}, placedJob{"y", []int64{4}, []string{"n1"}},
				placedJob{id: "c", gpus: []int64{4}})
			in := requeue.EngineInput{
				Nominations: noms("x", "r", "d", "w"),
				Victims: []requeue.Victim{
					{ID: "r", Start: now.Add(-time.Hour), Resources: 2},      // 2 GPU-hours
					{ID: "d", Start: now.Add(-time.Hour), Resources: 4},      // 4
					{ID: "w", Start: now.Add(-10 * time.Hour), Resources: 4}, // 40
				},
				Contenders: []requeue.Contender{{ID: "c", Priority: 5}},
			}
			e, err := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"d/c": true}}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(now, in, mv.view(c))
			if err != nil {
				t.Fatal(err)
			}
			want := []requeue.Outcome{committedAt(now, "w", "c"), keptFor("r", eligibility.Reason("cheaper_set")),
				{Job: "d", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}}}
			if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
		})
	}
}

// TestEngineEmptyIDs: an empty victim ID is skipped with invalid_id (a
// FitBounder would read MayFit("") as "no eviction"), an empty contender
// ID is dropped with ErrEmptyContenderID; the rest of the pass goes on.
func TestEngineEmptyIDs(t *testing.T) {
	for _, mv := range modelViews {
		t.Run(mv.name, func(t *testing.T) {
			c := nodeCluster(t, 1, placedJob{"v", []int64{8}, []string{"n0"}}, placedJob{id: "p", gpus: []int64{8}})
			in := requeue.EngineInput{
				Nominations: noms("x", "", "v"),
				Victims:     []requeue.Victim{{ID: ""}, {ID: "v", Start: t0}},
				Contenders:  []requeue.Contender{{ID: "", Priority: 9}, {ID: "p", Priority: 5}},
			}
			res, err := new(requeue.Engine).Run(t0, in, mv.view(c))
			if err != nil {
				t.Fatal(err)
			}
			want := []requeue.Outcome{
				{Job: "", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonInvalidID}},
				committedAt(t0, "v", "p"),
			}
			if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
			if len(res.ContenderProblems) != 1 || !errors.Is(res.ContenderProblems[0].Err, requeue.ErrEmptyContenderID) {
				t.Errorf("contender errors %v", res.ContenderProblems)
			}
		})
	}
}

// TestEngineDeniedVictimsLeaveWindow: young (cheap) victims a filter
// protects, 72 of them ahead of the old one in victim order: once denied
// for the contender they leave its list, and the old unprotected victim
// that alone makes room is reached and committed.
func TestEngineDeniedVictimsLeaveWindow(t *testing.T) {
	now := t0.Add(10 * time.Hour)
	protect := requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		if now.Sub(v.Start) < time.Hour {
			return eligibility.Decision{Reason: "protected", Until: v.Start.Add(time.Hour)}
		}
		return eligibility.Decision{Allowed: true}
	})
	// nodes-1 nodes of 8 young 1-GPU victims, and "old", 8 GPUs, on the
	// last node.
	nodes := 10
	var jobs []placedJob
	var in requeue.EngineInput
	for n := range nodes - 1 {
		for g := range 8 {
			id := fmt.Sprintf("y%d_%d", n, g)
			jobs = append(jobs, placedJob{id, []int64{1}, []string{fmt.Sprint("n", n)}})
			in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: id, Nominator: "x"})
			in.Victims = append(in.Victims, requeue.Victim{ID: id, Start: now.Add(-10 * time.Minute), Resources: 1})
		}
	}
	jobs = append(jobs, placedJob{"old", []int64{8}, []string{fmt.Sprint("n", nodes-1)}}, placedJob{id: "c", gpus: []int64{8}})
	in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: "old", Nominator: "x"})
	in.Victims = append(in.Victims, requeue.Victim{ID: "old", Start: t0, Resources: 8})
	in.Contenders = []requeue.Contender{{ID: "c", Priority: 9}}
	for _, mv := range modelViews {
		e, err := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{protect}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Run(now, in, mv.view(nodeCluster(t, nodes, jobs...)))
		if err != nil {
			t.Fatal(err)
		}
		if set, _ := engineSetFor(res, "c"); !cmp.Equal(set, []string{"old"}) {
			t.Errorf("%s: set for c = %v, want [old]", mv.name, set)
		}
	}
}
