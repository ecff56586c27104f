package requeue_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/internal/clustercheck"
)

// TestEngineFilterDenials: when every qualifying contender is denied, the
// skip carries the first denial's reason (in contender order) and the
// earliest Until among all the denials.
func TestEngineFilterDenials(t *testing.T) {
	now := t0.Add(3 * time.Hour)
	deny := requeue.VictimFilterFunc(func(now time.Time, v *requeue.Victim, c *requeue.Contender) eligibility.Decision {
		switch c.ID {
		case "p": // tried first (higher priority), expires later
			return eligibility.Decision{Reason: "minruntime_protected", Until: now.Add(2 * time.Hour)}
		case "q":
			return eligibility.Decision{Reason: "clock_skew", Until: now.Add(time.Hour)}
		}
		return eligibility.Decision{Reason: "other"} // no Until: does not lower the minimum
	})
	c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true},
		fxJob{id: "p", gpus: []int64{4}}, fxJob{id: "q", gpus: []int64{4}}, fxJob{id: "r", gpus: []int64{4}})
	e, err := requeue.NewEngine(requeue.EngineConfig{Filters: []requeue.VictimFilter{deny}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(now, requeue.EngineInput{
		Nominations: noms("x", "v"),
		Victims:     []requeue.Victim{{ID: "v", Priority: 1}},
		Contenders:  []requeue.Contender{{ID: "r", Priority: 3}, {ID: "q", Priority: 4}, {ID: "p", Priority: 5}},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []requeue.Outcome{{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: now.Add(time.Hour)}}}
	if d := cmp.Diff(want, res.Outcomes, errPresence); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	if !res.Wake.Equal(now.Add(time.Hour)) {
		t.Errorf("Wake = %v, want %v", res.Wake, now.Add(time.Hour))
	}
}

// TestEngineInconsistentLists covers input where the same job appears in
// roles it cannot hold at once: a running victim listed as a contender,
// duplicate contender IDs, a nominated job that is still pending.
func TestEngineInconsistentLists(t *testing.T) {
	now := t0
	committed := func(job string, contenders ...string) requeue.Outcome {
		return requeue.Outcome{Job: job, Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
			Contenders: contenders, NotBefore: now, Annotation: "2025-01-15T10:00:00Z"}
	}
	tests := []struct {
		name       string
		cfg        requeue.EngineConfig
		jobs       []fxJob
		in         requeue.EngineInput
		want       []requeue.Outcome
		wantResult func(res requeue.EngineResult) string
	}{
		{
			name: "a victim listed as a contender is dropped as a contender",
			jobs: []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}},
			in: requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 1}},
				Contenders:  []requeue.Contender{{ID: "v", Priority: 5}},
			},
			want:       []requeue.Outcome{{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}}},
			wantResult: nominatedContenders("v"),
		},
		{
			// w, dropped as a contender, is still a victim: alone on its
			// node, it would have made room for p too; v (lower
			// priority) comes first in victim order and is enough, so no
			// search comes to w.
			name: "a nominated contender is dropped even when another victim could make room for it",
			jobs: []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}, {id: "p", gpus: []int64{4}}},
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "w"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 1}, {ID: "w", Priority: 2}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 9}, {ID: "w", Priority: 5}},
			},
			want:       []requeue.Outcome{committed("v", "p"), {Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeKept, Decision: eligibility.Decision{Reason: eligibility.Reason("no_contender")}}},
			wantResult: nominatedContenders("w"),
		},
		{
			// The entry with priority 9 is kept: it may use v's resources
			// (priority 8); the one with priority 8 could not.
			name: "duplicate contender IDs: the first in contender order is kept, and tried once",
			jobs: []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}, {id: "p", gpus: []int64{2}}},
			in: requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 8}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 8}, {ID: "p", Priority: 9}, {ID: "p", Priority: 8}},
			},
			want: []requeue.Outcome{committed("v", "p")},
			wantResult: func(res requeue.EngineResult) string {
				// One fit test in the first round, one in the set search,
				// one to commit the set.
				if res.Attempts != 3 || res.Sets != 1 || len(res.ContenderProblems) != 0 {
					return "duplicate contender tried twice"
				}
				return ""
			},
		},
		{
			// x is pending and (wrongly) nominated, and listed as a
			// contender: it is dropped as a contender; as a victim, the
			// model cannot evict it. y fits in v's resources, but the
			// filter protects v from y.
			name: "a pending job nominated and listed as a contender",
			cfg:  requeue.EngineConfig{Filters: []requeue.VictimFilter{denyFilter{"v/y": true}}},
			jobs: []fxJob{{id: "v", gpus: []int64{4}, running: true}, {id: "w", gpus: []int64{4}, running: true}, {id: "x", gpus: []int64{4}}, {id: "y", gpus: []int64{4}}},
			in: requeue.EngineInput{
				Nominations: noms("x", "v", "x"),
				Victims:     []requeue.Victim{{ID: "v", Priority: 1}, {ID: "x", Priority: 5}},
				Contenders:  []requeue.Contender{{ID: "y", Priority: 9}, {ID: "x", Priority: 5}},
			},
			want: []requeue.Outcome{
				// x's Evict fails during y's set search (decided then);
				// v is decided at the end of the pass.
				{Job: "x", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonEvictError}, Err: errors.New("not running")},
				{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: "minruntime_protected", Until: t0.Add(time.Hour)}},
			},
			wantResult: nominatedContenders("x"),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := gpuCluster(t, 2, tc.jobs...)
			e, err := requeue.NewEngine(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(now, tc.in, c)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, res.Outcomes, errPresence); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
			if tc.wantResult != nil {
				if msg := tc.wantResult(res); msg != "" {
					t.Errorf("%s: %+v", msg, res)
				}
			}
			if err := clustercheck.Check(c); err != nil {
				t.Error(err)
			}
		})
	}
}

// nominatedContenders checks that exactly the given contenders were
// dropped for being nominated.
func nominatedContenders(ids ...string) func(requeue.EngineResult) string {
	return func(res requeue.EngineResult) string {
		var got []string
		for _, ce := range res.ContenderProblems {
			if !errors.Is(ce.Err, requeue.ErrContenderNominated) || !strings.Contains(ce.Err.Error(), strconv.Quote(ce.Contender)) {
				return fmt.Sprintf("contender error %v", ce)
			}
			got = append(got, ce.Contender)
		}
		if !slices.Equal(got, ids) {
			return fmt.Sprintf("nominated contenders %v, want %v", got, ids)
		}
		return ""
	}
}

// partialModel wraps a Cluster and fails after making recorded changes, as
// the Model contract allows: Evict of a job in evictFail releases it and
// then reports an error; Place of a job in placeLies places it and then
// reports that it did not fit.
type partialModel struct {
	c         *cluster.Model
	evictFail map[string]bool
	placeLies map[string]bool
}

func (m partialModel) Evict(j *requeue.Journal, job string) error {
	if err := m.c.Evict(j, job); err != nil {
		return err
	}
	if m.evictFail[job] {
		return errors.New("evict failed after releasing")
	}
	return nil
}

func (m partialModel) Place(j *requeue.Journal, job string) (bool, error) {
	ok, err := m.c.Place(j, job)
	if m.placeLies[job] {
		return false, err
	}
	return ok, err
}

// TestEngineRollsBackPartialChanges: the engine undoes what a failed Evict
// or a failed Place recorded, so the next contender finds the victim's
// resources free and the model ends the pass with the commits only.
func TestEngineRollsBackPartialChanges(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "liar", gpus: []int64{4}}, fxJob{id: "p", gpus: []int64{4}})
	want := c.Clone()
	if err := want.Evict(nil, "w"); err != nil {
		t.Fatal(err)
	}
	if ok, err := want.Place(nil, "p"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	e, err := requeue.NewEngine(requeue.EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m := partialModel{c: c, evictFail: map[string]bool{"v": true}, placeLies: map[string]bool{"liar": true}}
	res, err := e.Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v", Priority: 1}, {ID: "w", Priority: 2}},
		Contenders:  []requeue.Contender{{ID: "liar", Priority: 9}, {ID: "p", Priority: 8}},
	}, m)
	if err != nil {
		t.Fatal(err)
	}
	wantOutcomes := []requeue.Outcome{
		{Job: "v", Nominators: []string{"x"}, Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonEvictError}, Err: errors.New("any")},
		{Job: "w", Nominators: []string{"x"}, Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
			Contenders: []string{"p"}, NotBefore: t0, Annotation: "2025-01-15T10:00:00Z"},
	}
	if d := cmp.Diff(wantOutcomes, res.Outcomes, errPresence); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want.Snapshot(), c.Snapshot()); d != "" {
		t.Errorf("partial changes left in the model (-want +got):\n%s", d)
	}
	if requeue.JournalLen(e) != 0 {
		t.Errorf("journal holds %d steps after the pass", requeue.JournalLen(e))
	}
}

// TestEngineBadInstants: a not-before RFC3339 cannot write (outside years
// 0000..9999) is bad data, not an unparsable annotation; a zero NotBefore
// means no gate even for a now before year 1.
func TestEngineBadInstants(t *testing.T) {
	last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	tests := []struct {
		name string
		now  time.Time
		want requeue.Outcome
	}{
		{"last writable second", last, requeue.Outcome{Kind: requeue.OutcomeCommitted, Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("committed")},
			Contenders: []string{"p"}, NotBefore: last, Annotation: "9999-12-31T23:59:59Z"}},
		{"rounds up into year 10000", last.Add(time.Nanosecond), requeue.Outcome{Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonInvalidDelay}}},
		{"negative year", time.Date(-3, 1, 1, 0, 0, 0, 0, time.UTC), requeue.Outcome{Kind: requeue.OutcomeSkipped, Decision: eligibility.Decision{Reason: requeue.ReasonInvalidDelay}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := gpuCluster(t, 1, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "p", gpus: []int64{4}})
			res, err := (&requeue.Engine{}).Run(tc.now, requeue.EngineInput{
				Nominations: noms("x", "v"),
				Victims:     []requeue.Victim{{ID: "v"}},
				Contenders:  []requeue.Contender{{ID: "p", Priority: 1}},
			}, c)
			if err != nil {
				t.Fatal(err)
			}
			tc.want.Job, tc.want.Nominators = "v", []string{"x"}
			if d := cmp.Diff([]requeue.Outcome{tc.want}, res.Outcomes, errPresence); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			for _, o := range res.Outcomes {
				if o.Annotation == "" {
					continue
				}
				if back, err := time.Parse(time.RFC3339Nano, o.Annotation); err != nil || !back.Equal(o.NotBefore) {
					t.Errorf("annotation %q parses to %v, %v; want %v", o.Annotation, back, err, o.NotBefore)
				}
			}
		})
	}
}

// rogueModel breaks the Model contract: Place commits the engine's journal
// (and then reports no fit), so the engine cannot roll the attempt back.
type rogueModel struct{ c *cluster.Model }

func (m rogueModel) Evict(j *requeue.Journal, job string) error { return m.c.Evict(j, job) }

func (m rogueModel) Place(j *requeue.Journal, job string) (bool, error) {
	_, err := m.c.Place(j, job)
	j.Commit()
	return false, err
}

// TestEngineModelBreaksJournal: a model that commits the engine's journal
// makes Run return an error (the model's state is unreliable), without a
// panic and still with one outcome per nominated job.
func TestEngineModelBreaksJournal(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "v", gpus: []int64{4}, running: true}, fxJob{id: "w", gpus: []int64{4}, running: true},
		fxJob{id: "p", gpus: []int64{4}})
	res, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{
		Nominations: noms("x", "v", "w"),
		Victims:     []requeue.Victim{{ID: "v"}, {ID: "w"}},
		Contenders:  []requeue.Contender{{ID: "p", Priority: 1}},
	}, rogueModel{c})
	if !errors.Is(err, requeue.ErrInvalidCheckpoint) || !strings.HasPrefix(err.Error(), "requeue: ") {
		t.Fatalf("Run error = %v, want a requeue: error wrapping ErrInvalidCheckpoint", err)
	}
	if len(res.Outcomes) != 2 {
		t.Fatalf("%d outcomes, want 2: %+v", len(res.Outcomes), res.Outcomes)
	}
}
