package requeue_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/internal/notbefore"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
)

func committedAt(now time.Time, job string, contenders ...string) requeue.Outcome {
	return requeue.Outcome{Job: job, Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted,
		Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")}, Contenders: contenders,
		NotBefore: notbefore.Ceil(now), Annotation: eligibility.FormatNotBefore(now)}
}

func keptFor(job string, reason eligibility.Reason) requeue.Outcome {
	return requeue.Outcome{Job: job, Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: reason}}
}

// TestEngineNoNeedlessEviction is the reproduction of a needless eviction:
// victims v1 on n0 and v2 on n1 (4 GPUs each); c1 (2 GPUs) is placed after
// evicting v1 and leaves 2 GPUs free on n0; x (2 GPUs) may not use v1's
// resources (a filter, or CanContend). x must be placed in n0's leftover
// without evicting anyone, and v2 must keep running.
func TestEngineNoNeedlessEviction(t *testing.T) {
	now := t0
	for _, tc := range []struct {
		name string
		cfg  requeue.EngineConfig
	}{
		{"blocked by a filter", requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"v1/x": true}}}},
		{"blocked by CanContend", requeue.EngineConfig{CanContend: func(v *requeue.Victim, c *requeue.Contender) bool {
			return c.Priority > v.Priority && !(v.ID == "v1" && c.ID == "x")
		}}},
	} {
		for _, model := range []string{"cluster", "plain", "transactional"} {
			t.Run(tc.name+"/"+model, func(t *testing.T) {
				c := gpuCluster(t, 2, fxJob{id: "v1", gpus: []int64{4}, running: true}, fxJob{id: "v2", gpus: []int64{4}, running: true},
					fxJob{id: "c1", gpus: []int64{2}}, fxJob{id: "x", gpus: []int64{2}})
				var m requeue.Model = c
				switch model {
				case "plain":
					m = plainModel{c}
				case "transactional":
					m = &txCluster{c: c}
				}
				e, err := requeue.NewEngine(tc.cfg)
				if err != nil {
					t.Fatal(err)
				}
				res, err := e.Run(now, requeue.EngineInput{
					Nominations: noms("x", "v1", "v2"),
					Victims:     []requeue.Victim{{ID: "v1", Priority: 1}, {ID: "v2", Priority: 2}},
					Contenders:  []requeue.Contender{{ID: "c1", Priority: 9}, {ID: "x", Priority: 8}},
				}, m)
				if err != nil {
					t.Fatal(err)
				}
				// v2 alone on n1 would have made room for c1 too. The
				// search goes cheapest first (v1 has the lower priority),
				// c1 fits once v1 is gone, and no search comes to v2.
				want := []requeue.Outcome{committedAt(now, "v1", "c1"), keptFor("v2", eligibility.Reason("no_contender"))}
				if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
					t.Errorf("outcomes (-want +got):\n%s", d)
				}
				if d := cmp.Diff([]eligibility.Event{freeFit("x", "v1")}, res.FitWithoutEviction); d != "" {
					t.Errorf("placements without eviction (-want +got):\n%s", d)
				}
				if !running(c, "v2") || running(c, "v1") || placement(c, "x")[0] != "n0" || placement(c, "c1")[0] != "n0" {
					t.Errorf("final model: %+v", c.Snapshot())
				}
			})
		}
	}
}

// TestEngineFitWithoutEviction: a contender that fits as things are is
// placed and reported, and is never a reason to evict; a contender that
// does not fit is still tried in a victim's resources.
func TestEngineFitWithoutEviction(t *testing.T) {
	now := t0
	// n0: v (4 GPUs); n1: w (2 GPUs), 2 free.
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{2}, running: true},
		fxJob{id: "small", gpus: []int64{2}}, fxJob{id: "big", gpus: []int64{4}}, fxJob{id: "small2", gpus: []int64{2}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{})
	res, err := e.Run(now, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v", Priority: 1}, {ID: "w", Priority: 2}},
		Contenders:  []requeue.Contender{{ID: "small", Priority: 9}, {ID: "big", Priority: 8}, {ID: "small2", Priority: 7}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	// small takes n1's 2 free GPUs; big needs v's node; small2 then has
	// nowhere to go but w's 2 GPUs... which it may use (priority 7 > 2).
	want := requeue.EngineResult{
		Outcomes:           []requeue.Outcome{committedAt(now, "v", "big"), committedAt(now, "w", "small2")},
		FitWithoutEviction: []eligibility.Event{freeFit("small", "")},
		Commits:            2,
		Sets:               2,
	}
	if d := cmp.Diff(want, res, sameDecisions...); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if err := clustercheck.Check(c); err != nil {
		t.Error(err)
	}
}

// TestEngineFiltersAskedForWhatFits: the filters are asked only about
// contenders that fit in the victim's resources, so a victim is reported as
// protected only when the protection is what keeps it running. (The
// filters are asked about every victim a search scans; the denial is
// recorded only where it kept a contender from fitting.)
func TestEngineFiltersAskedForWhatFits(t *testing.T) {
	now := t0
	var asked []string
	filter := requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		asked = append(asked, v.ID+"/"+c.ID)
		return eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}
	})
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{2}, running: true}, fxJob{id: "w2", gpus: []int64{2}, running: true},
		fxJob{id: "huge", gpus: []int64{8}}, fxJob{id: "p", gpus: []int64{4}})
	e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{filter}})
	res, err := e.Run(now, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v", Priority: 1}, {ID: "w", Priority: 2}},
		Contenders:  []requeue.Contender{{ID: "huge", Priority: 9}, {ID: "p", Priority: 8}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{
		// p would fit in v's 4 GPUs: the protection keeps v.
		{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}},
		// Nothing fits in w's 2 GPUs: kept for that, protected or not.
		keptFor("w", eligibility.Reason("no_fit")),
	}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	// Asked once per victim and contender whose search scanned it.
	if d := cmp.Diff([]string{"v/huge", "w/huge", "v/p", "w/p"}, asked); d != "" {
		t.Errorf("filter calls (-want +got):\n%s", d)
	}
	if !res.Wake.Equal(t0.Add(time.Hour)) {
		t.Errorf("Wake %v", res.Wake)
	}
}

// depModel is a model whose placements are not monotone: a job may need
// another job running before it fits (a worker and its server). It checks
// that the engine tries a contender again after a placement changed the
// state, even one that did not fit before.
type depModel struct {
	free    int
	size    map[string]int
	needs   map[string]string
	running map[string]bool
}

func (m *depModel) Evict(j *requeue.Journal, id string) error {
	if !m.running[id] {
		return fmt.Errorf("%s is not running", id)
	}
	m.running[id], m.free = false, m.free+m.size[id]
	j.Record(func() { m.running[id], m.free = true, m.free-m.size[id] })
	return nil
}

func (m *depModel) Place(j *requeue.Journal, id string) (bool, error) {
	if m.running[id] {
		return false, fmt.Errorf("%s is running", id)
	}
	if dep := m.needs[id]; dep != "" && !m.running[dep] || m.size[id] > m.free {
		return false, nil
	}
	m.running[id], m.free = true, m.free-m.size[id]
	j.Record(func() { m.running[id], m.free = false, m.free+m.size[id] })
	return true, nil
}

func TestEngineRetriesAfterAPlacement(t *testing.T) {
	now := t0
	newModel := func(free int) *depModel {
		return &depModel{free: free, size: map[string]int{"v": 2, "a": 1, "b": 1}, needs: map[string]string{"b": "a"}, running: map[string]bool{"v": true}}
	}
	in := requeue.EngineInput{
		Nominations: noms("x", "v"),
		Victims:     []requeue.Victim{{ID: "v"}},
		Contenders:  []requeue.Contender{{ID: "b", Priority: 9}, {ID: "a", Priority: 8}},
	}
	// Room for both: b does not fit until a runs, then it does.
	m := newModel(2)
	res, err := (&requeue.Engine{}).Run(now, in, m)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]eligibility.Event{freeFit("a", ""), freeFit("b", "")}, res.FitWithoutEviction); d != "" {
		t.Errorf("without eviction (-want +got):\n%s", d)
	}
	// No room: both in v's resources, b after a.
	m = newModel(0)
	res, err = (&requeue.Engine{}).Run(now, in, m)
	if err != nil {
		t.Fatal(err)
	}
	// No room: b, first in order, does not fit even with v evicted (a is
	// not running); a's set {v} is committed, and b then fits in the room
	// left, without eviction.
	if d := cmp.Diff([]requeue.Outcome{committedAt(now, "v", "a")}, res.Outcomes, errPresence); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if d := cmp.Diff([]eligibility.Event{freeFit("b", "v")}, res.FitWithoutEviction); d != "" {
		t.Errorf("without eviction (-want +got):\n%s", d)
	}
}

// TestEngineVictimDataOrder: two nominators report the same job with
// different data; the requeue delay, the not-before and the priority do not
// depend on which comes first.
func TestEngineVictimDataOrder(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	expected := requeue.Victim{ID: "v", Priority: 1, Start: t0, Expected: 2 * time.Hour, RequeueDelay: 30 * time.Minute, HasRequeueDelay: true}
	proportion := requeue.Victim{ID: "v", Priority: 1}
	for _, victims := range [][]requeue.Victim{{expected, proportion}, {proportion, expected}} {
		c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
		e, _ := requeue.NewEngine(requeue.EngineConfig{DefaultDelay: time.Minute})
		res, err := e.Run(now, requeue.EngineInput{
			Nominations: append(noms("expectedruntime", "v"), noms("proportion", "v")...),
			Victims:     victims,
			Contenders:  []requeue.Contender{{ID: "p", Priority: 5}},
		}, c)
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Outcomes[0]; o.Kind != requeue.OutcomeCommitted || !o.NotBefore.Equal(now.Add(30*time.Minute)) {
			t.Errorf("victims %v: outcome %+v, want committed with not-before now+30m", victims, o)
		}
	}
}

// TestMergeVictim pins the per-field rule and checks that it is commutative
// and associative.
func TestMergeVictim(t *testing.T) {
	a := requeue.Victim{ID: "v", Priority: 3, Queue: 2, Start: t0.Add(time.Hour), Expected: time.Hour, NotBefore: t0}
	b := requeue.Victim{ID: "v", Priority: 5, Queue: -1, Start: t0, Expected: 2 * time.Hour, RequeueDelay: 10 * time.Minute, HasRequeueDelay: true}
	c := requeue.Victim{ID: "v", Priority: 1, Queue: 4, RequeueDelay: 20 * time.Minute, HasRequeueDelay: true, NotBefore: t0.Add(time.Minute)}
	d := requeue.Victim{ID: "v", RequeueDelay: -time.Minute, HasRequeueDelay: true}
	merge := func(vs ...requeue.Victim) requeue.Victim {
		out := vs[0]
		for _, v := range vs[1:] {
			requeue.MergeVictim(&out, &v)
		}
		return out
	}
	tests := []struct {
		name string
		in   []requeue.Victim
		want requeue.Victim
	}{
		{"highest priority, largest queue, latest start, longest expected, explicit delay, latest not-before", []requeue.Victim{a, b},
			requeue.Victim{ID: "v", Priority: 5, Queue: 2, Start: t0.Add(time.Hour), Expected: 2 * time.Hour, RequeueDelay: 10 * time.Minute, HasRequeueDelay: true, NotBefore: t0}},
		{"two explicit delays: the longest", []requeue.Victim{b, c},
			requeue.Victim{ID: "v", Priority: 5, Queue: 4, Start: t0, Expected: 2 * time.Hour, RequeueDelay: 20 * time.Minute, HasRequeueDelay: true, NotBefore: t0.Add(time.Minute)}},
		{"a known start and not-before win over the zero time", []requeue.Victim{c, a},
			requeue.Victim{ID: "v", Priority: 3, Queue: 4, Start: t0.Add(time.Hour), Expected: time.Hour, RequeueDelay: 20 * time.Minute, HasRequeueDelay: true, NotBefore: t0.Add(time.Minute)}},
		{"a negative delay loses to a valid one", []requeue.Victim{d, b}, merge(b, d)},
		{"a negative delay alone stays (and is reported as invalid)", []requeue.Victim{d, {ID: "v"}}, d},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, merge(tc.in...)); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
	if got := merge(d, b); got.RequeueDelay != 10*time.Minute {
		t.Errorf("negative delay merged with 10m: %v", got.RequeueDelay)
	}
	all := []requeue.Victim{a, b, c, d}
	want := merge(all...)
	for _, perm := range [][]int{{3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}} {
		var vs []requeue.Victim
		for _, i := range perm {
			vs = append(vs, all[i])
		}
		if d := cmp.Diff(want, merge(vs...)); d != "" {
			t.Errorf("order %v (-want +got):\n%s", perm, d)
		}
	}
	// Associative: merging merged halves gives the same.
	if d := cmp.Diff(want, merge(merge(a, b), merge(c, d))); d != "" {
		t.Errorf("merge of merges (-want +got):\n%s", d)
	}
}

// neverFits is a Model in which every eviction succeeds and nothing ever
// fits: the worst case for a pass, and no help from the model.
type neverFits struct{ evicts, places int }

func (m *neverFits) Evict(*requeue.Journal, string) error { m.evicts++; return nil }
func (m *neverFits) Place(*requeue.Journal, string) (bool, error) {
	m.places++
	return false, nil
}

// TestEngineZeroConfigBounded: with the zero EngineConfig, a pass over a
// model that offers no help and in which nothing ever fits ends without a
// bound: the first search evicts every victim once and finds no set; the
// contenders of its class after it cost one fit test each (every victim
// they may use is evicted already). With a CanContend that qualifies
// nobody, every search is cut at its share of MaxChecks and no victim is
// deferred for it (none was eligible).
func TestEngineZeroConfigBounded(t *testing.T) {
	// 800 victims, 8,000 contenders, nothing ever fits.
	const victims, contenders = 800, 8000
	var in requeue.EngineInput
	for i := range victims {
		in.Nominations = append(in.Nominations, requeue.VictimNomination{Job: fmt.Sprintf("v%03d", i), Nominator: "x"})
		in.Victims = append(in.Victims, requeue.Victim{ID: fmt.Sprintf("v%03d", i)})
	}
	for i := range contenders {
		in.Contenders = append(in.Contenders, requeue.Contender{ID: fmt.Sprintf("c%04d", i), Priority: 1})
	}
	m := &neverFits{}
	res, err := (&requeue.Engine{}).Run(t0, in, m)
	if err != nil {
		t.Fatal(err)
	}
	// The first round: MaxFillFailures failed fit tests. c0000 (tried in
	// it) gallops: fit tests after 1, 2, 4, …, 512 and 800 victims. Every
	// other contender: one fit test with all 800 evicted. The last round:
	// MaxFillFailures failed fit tests again.
	fill := engineDefaults.MaxFillFailures
	wantAttempts := fill + 11 + contenders - 1 + fill
	if res.Attempts != wantAttempts || m.places != wantAttempts || m.evicts != victims || res.Checks != wantAttempts+victims {
		t.Fatalf("attempts %d, Place calls %d, evictions %d, checks %d; want %d, %d, %d, %d",
			res.Attempts, m.places, m.evicts, res.Checks, wantAttempts, wantAttempts, victims, wantAttempts+victims)
	}
	if res.NoSet != contenders || res.Stop != "" || res.Untried != 0 || res.OverShare != 0 {
		t.Fatalf("no set %d, stop %q, untried %d, over share %d", res.NoSet, res.Stop, res.Untried, res.OverShare)
	}
	got := map[string]int{}
	for _, o := range res.Outcomes {
		got[o.Kind.String()+"/"+o.Reason.String()]++
	}
	if want := map[string]int{"kept/no_fit": victims}; !cmp.Equal(want, got) {
		t.Errorf("outcomes %v, want %v", got, want)
	}

	// The checks bound, with a CanContend that qualifies nobody: every
	// search calls it for victim after victim until its share runs out.
	many := requeue.EngineInput{}
	for i := range 10_000 {
		many.Nominations = append(many.Nominations, requeue.VictimNomination{Job: fmt.Sprint("v", i), Nominator: "x"})
		many.Victims = append(many.Victims, requeue.Victim{ID: fmt.Sprint("v", i)})
	}
	for i := range 20_000 {
		many.Contenders = append(many.Contenders, requeue.Contender{ID: fmt.Sprint("c", i), Priority: 1})
	}
	e, _ := requeue.NewEngine(requeue.EngineConfig{MaxChecks: 1_000_000, MaxAttempts: unbounded, CanContend: func(v *requeue.Victim, c *requeue.Contender) bool { return false }})
	res, err = e.Run(t0, many, &neverFits{})
	if err != nil {
		t.Fatal(err)
	}
	got = map[string]int{}
	for _, o := range res.Outcomes {
		got[o.Kind.String()+"/"+o.Reason.String()]++
	}
	if want := map[string]int{"kept/no_contender": 10_000}; res.Checks > 1_000_000 || !cmp.Equal(want, got) {
		t.Errorf("checks %d, outcomes %v, want %v", res.Checks, got, want)
	}
	if res.OverShare+res.NoSet != 20_000 || res.OverShare == 0 {
		t.Errorf("over share %d, no set %d: want every one of 20,000 contenders counted, some over their share", res.OverShare, res.NoSet)
	}
}

// TestEngineBadInput: bad data and failing models get an outcome or an
// error, never a panic.
func TestEngineBadInput(t *testing.T) {
	now := t0
	full := []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}}
	tests := []struct {
		name    string
		jobs    []fxJob
		model   func(c *cluster.Model) requeue.Model
		in      requeue.EngineInput
		want    requeue.EngineResult
		wantErr bool
	}{
		{
			name: "a nominated job without victim data, a victim unknown to the model, a contender unknown to the model",
			jobs: full,
			in: requeue.EngineInput{
				Nominations: noms("x", "nodata", "ghost"),
				Victims:     []requeue.Victim{{ID: "ghost"}, {ID: "unnominated"}},
				Contenders:  []requeue.Contender{{ID: "phantom", Priority: 3}},
			},
			want: requeue.EngineResult{
				Outcomes: []requeue.Outcome{
					{Job: "nodata", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonUnknownVictim}},
					keptFor("ghost", eligibility.Reason("no_contender")), // phantom failed before any victim
				},
				ContenderProblems: []requeue.ContenderProblem{{Contender: "phantom", Err: errors.New("unknown")}},
			},
		},
		{
			name: "duplicate IDs everywhere",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: append(noms("x", "v", "v", "w"), noms("x", "w")...),
				Victims:     []requeue.Victim{{ID: "w", Priority: 1}, {ID: "v"}, {ID: "w"}, {ID: "v", Priority: 2}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 3}, {ID: "p", Priority: 1}},
			},
			want: requeue.EngineResult{
				// v, alone on its node, would have made room for p too;
				// w (lower priority) comes first and is enough.
				Outcomes: []requeue.Outcome{committedAt(now, "w", "p"), keptFor("v", eligibility.Reason("no_contender"))},
				Commits:  1,
				Sets:     1,
			},
		},
		{
			name: "a running job listed as a contender, and a contender that is nominated",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			in: requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{{ID: "v"}},
				Contenders:  []requeue.Contender{{ID: "w", Priority: 3}, {ID: "v", Priority: 3}, {ID: "p", Priority: 1}},
			},
			want: requeue.EngineResult{
				Outcomes: []requeue.Outcome{committedAt(now, "v", "p")},
				ContenderProblems: []requeue.ContenderProblem{
					{Contender: "v", Err: requeue.ErrContenderNominated},
					{Contender: "w", Err: errors.New("already running")},
				},
				Commits: 1,
				Sets:    1,
			},
		},
		{
			name: "a model whose Evict fails after releasing, and whose Place lies",
			jobs: append(full, fxJob{id: "p", gpus: []int64{4}}),
			model: func(c *cluster.Model) requeue.Model {
				return partialModel{c: c, evictFail: map[string]bool{"v": true}, placeLies: map[string]bool{"p": true}}
			},
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 3}},
			},
			want: requeue.EngineResult{
				Outcomes: []requeue.Outcome{
					{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonEvictError}, Err: errors.New("evict failed")},
					keptFor("w", eligibility.Reason("no_fit")),
				},
			},
		},
		{
			name:  "a Transactional model whose Rollback fails: the pass stops with an error",
			jobs:  append(full, fxJob{id: "big", gpus: []int64{8}}),
			model: func(c *cluster.Model) requeue.Model { return &badRollback{txCluster{c: c}} },
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{{ID: "v"}, {ID: "w", Priority: 1}},
				Contenders:  []requeue.Contender{{ID: "big", Priority: 3}},
			},
			want: requeue.EngineResult{
				Outcomes: []requeue.Outcome{
					{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("model_error")}},
					{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("model_error")}},
				},
			},
			wantErr: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := gpuCluster(t, 2, tc.jobs...)
			var m requeue.Model = c
			if tc.model != nil {
				m = tc.model(c)
			}
			res, err := (&requeue.Engine{}).Run(now, tc.in, m)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			if err != nil && !errors.Is(err, errRollbackRefused) {
				t.Errorf("error %v does not wrap the model's", err)
			}
			if d := cmp.Diff(tc.want, res, sameDecisions...); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

var errRollbackRefused = errors.New("rollback refused")

// badRollback is a Transactional model whose Rollback always fails.
type badRollback struct{ txCluster }

func (m *badRollback) Rollback(uint64) error { return errRollbackRefused }

// TestEngineBoundInContenderWalk: MaxChecks reached while the engine looks
// for a shape's next qualifying contender (CanContend says no to most)
// defers the victim; it is neither kept nor skipped on partial evidence.
func TestEngineBoundInContenderWalk(t *testing.T) {
	jobs := []fxJob{{id: "v", gpus: []int64{4}, running: true}}
	var conts []requeue.Contender
	for i := range 100 {
		id := fmt.Sprintf("c%02d", i)
		jobs = append(jobs, fxJob{id: id, gpus: []int64{4}})
		conts = append(conts, requeue.Contender{ID: id, Priority: 5})
	}
	in := requeue.EngineInput{Nominations: noms("x", "v"), Victims: []requeue.Victim{{ID: "v"}}, Contenders: conts}
	cfg := requeue.EngineConfig{
		Filters:    []requeue.VictimFilter{denyFilter{"v/c00": true}},
		CanContend: func(v *requeue.Victim, c *requeue.Contender) bool { return c.ID == "c00" || c.ID == "c99" },
	}
	for _, tc := range []struct {
		maxChecks int
		want      requeue.Outcome
	}{
		{0, committedAt(t0, "v", "c99")},
		{50, requeue.Outcome{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeDeferred, Decision: eligibility.Decision{Reason: eligibility.Reason("max_checks")}}},
	} {
		cfg.MaxChecks = tc.maxChecks
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(t0, in, gpuCluster(t, 1, jobs...))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]requeue.Outcome{tc.want}, res.Outcomes, errPresence); d != "" {
			t.Errorf("MaxChecks %d (-want +got):\n%s", tc.maxChecks, d)
		}
	}
}

// TestEngineTimesInUTC: entries that give one instant in different time
// zones give the same result in any order, with every time in UTC (and the
// filters see the victims' and contenders' times in UTC too).
func TestEngineTimesInUTC(t *testing.T) {
	east := time.FixedZone("E", 3600)
	nb := t0.Add(time.Hour)
	var seen []*time.Location
	look := requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		seen = append(seen, v.Start.Location(), c.Queued.Location())
		return eligibility.Decision{Reason: "protected", Until: nb.In(east)}
	})
	run := func(victims []requeue.Victim, conts []requeue.Contender) requeue.EngineResult {
		c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
			fxJob{id: "p", gpus: []int64{4}})
		e, _ := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{look}})
		res, err := e.Run(t0, requeue.EngineInput{Nominations: noms("a", "v", "w"), Victims: victims, Contenders: conts}, c)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	v1, v2 := requeue.Victim{ID: "v", NotBefore: nb}, requeue.Victim{ID: "v", NotBefore: nb.In(east)}
	w1, w2 := requeue.Victim{ID: "w", Start: t0}, requeue.Victim{ID: "w", Start: t0.In(east)}
	c1, c2 := requeue.Contender{ID: "p", Priority: 1, Queued: t0}, requeue.Contender{ID: "p", Priority: 1, Queued: t0.In(east)}
	a := run([]requeue.Victim{v1, v2, w1, w2}, []requeue.Contender{c1, c2})
	b := run([]requeue.Victim{v2, v1, w2, w1}, []requeue.Contender{c2, c1})
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("the order of equal instants in other zones changed the result:\n%+v\n%+v", a, b)
	}
	for _, o := range a.Outcomes {
		if o.Until.Location() != time.UTC {
			t.Errorf("outcome %s: Until %v not in UTC", o.Job, o.Until)
		}
	}
	if a.Wake.IsZero() || a.Wake.Location() != time.UTC {
		t.Errorf("Wake %v not in UTC", a.Wake)
	}
	if len(seen) == 0 {
		t.Fatal("the filter was never asked")
	}
	for _, loc := range seen {
		if loc != time.UTC {
			t.Fatalf("a filter saw a time in %v", loc)
		}
	}
}

// freeFit is the FitWithoutEviction entry of an engine named "requeue"
// for contender, placed after the commit of victim after.
func freeFit(contender, after string) eligibility.Event {
	return eligibility.Event{Source: "requeue", Job: contender, Other: after, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("fit_without_eviction")}}
}
