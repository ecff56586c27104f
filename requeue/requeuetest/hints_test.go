package requeuetest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

// hinted wraps the reference Cluster with a defect in its hints; the
// Cluster's Evict, Place, Shape and MayFit are used otherwise.
type hinted struct {
	*cluster.Model
	bug   string
	calls int
}

func (h *hinted) MayFit(victim string, jobs []string, fits []bool) {
	h.Model.MayFit(victim, jobs, fits)
	for i, id := range jobs {
		switch {
		case h.bug == "liar" && victim == "" && h.known(id) && h.nodeFull():
			// Takes one full node for a full cluster: claims nothing
			// fits as things are while a node has no free GPU, whatever
			// room the other nodes have.
			fits[i] = false
		case h.bug == "unknown-false" && !h.known(id):
			fits[i] = false
		case h.bug == "always-true":
			fits[i] = true
		case h.bug == "mayfit-flaky" && !fits[i]:
			// Sound (true promises nothing), but every other false
			// becomes true: the same question in one state gets two
			// answers.
			h.calls++
			fits[i] = h.calls%2 == 0
		}
	}
	if h.bug == "mutates" && running(h.Model, "r-small") {
		_ = h.Model.Evict(nil, "r-small") // not even journaled
	}
}

func (h *hinted) Shape(job string) (string, bool) {
	key, ok := h.Model.Shape(job)
	switch {
	case h.bug == "one-shape" && ok:
		return "every pending job", true
	case h.bug == "unknown-shape" && !h.known(job):
		return "unknown", true
	}
	return key, ok
}

func hintedModel(bug string) func() *hinted {
	return func() *hinted { return &hinted{Model: testCluster(), bug: bug} }
}

func hintedState(h *hinted) string { return clusterState(h.Model) }

// TestBrokenHintsFail: the kit checks the hints the engine trusts to skip
// placement attempts, for every seed tried.
func TestBrokenHintsFail(t *testing.T) {
	for _, tc := range []struct{ bug, want string }{
		{"liar", `said it cannot fit, but Place("`},
		{"unknown-false", "a job the model does not know (the contract: true for an unknown job)"},
		{"mutates", "changed the state (the contract: MayFit must not)"},
		{"one-shape", "are equal, but after evicting"},
		{"unknown-shape", "true for a job the model does not know (the contract: ok false)"},
	} {
		t.Run(tc.bug, func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				err := requeuetest.TestModel(hintedModel(tc.bug), hintedState, clusterRunning, clusterPending, requeuetest.Options{Seed: seed})
				if got := problem(err); !strings.Contains(got, tc.want) {
					t.Fatalf("seed %d: problem %q, want it to contain %q; error:\n%v", seed, got, tc.want, err)
				}
			}
		})
	}
}

// TestLyingFitBoundMakesNeedlessEvictions shows what the kit guards
// against: with the liar's MayFit, the engine evicts a victim for a
// contender that fits without it (the liar rules the contender out while
// the victim fills its node, and lets it fit once the victim is gone).
func TestLyingFitBoundMakesNeedlessEvictions(t *testing.T) {
	for _, bug := range []string{"", "liar"} {
		c, err := cluster.New([]cluster.Node{{Name: "n1", Capacity: cluster.Resources{GPU: 8}}, {Name: "n2", Capacity: cluster.Resources{GPU: 8}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range []struct {
			id   string
			gpus int64
			on   string
		}{{"v", 8, "n1"}, {"w", 2, "n2"}, {"p", 4, ""}} {
			if err := c.AddJob(nil, cluster.Job{ID: j.id, Tasks: []cluster.Resources{{GPU: j.gpus}}}); err != nil {
				t.Fatal(err)
			}
			if j.on != "" {
				if err := c.Bind(nil, j.id, []string{j.on}); err != nil {
					t.Fatal(err)
				}
			}
		}
		res, err := (&requeue.Engine{}).Run(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), requeue.EngineInput{
			Nominations: []requeue.VictimNomination{{Job: "v", Nominator: "x"}},
			Victims:     []requeue.Victim{{ID: "v"}},
			Contenders:  []requeue.Contender{{ID: "p", Priority: 5}},
		}, &hinted{Model: c, bug: bug})
		if err != nil {
			t.Fatal(err)
		}
		evicted := res.Outcomes[0].Kind == requeue.OutcomeCommitted
		if evicted != (bug == "liar") {
			t.Fatalf("bug %q: outcome %v, free fits %v", bug, res.Outcomes, res.FitWithoutEviction)
		}
	}
}

// TestUnexercisedHints: a fit bound that never rules anything out checks
// nothing about MayFit's soundness; the kit says so unless told to allow
// it.
func TestUnexercisedHints(t *testing.T) {
	err := requeuetest.TestModel(hintedModel("always-true"), hintedState, clusterRunning, clusterPending)
	if err == nil || !strings.Contains(err.Error(), "a MayFit that rules a pending job out") {
		t.Fatalf("err = %v", err)
	}
	if err := requeuetest.TestModel(hintedModel("always-true"), hintedState, clusterRunning, clusterPending, requeuetest.Options{AllowUnexercised: true}); err != nil {
		t.Fatalf("with AllowUnexercised: %v", err)
	}
	// A Shaper whose pending jobs never share a key checks nothing about
	// shapes either.
	single := func() *hinted {
		c, err := cluster.New([]cluster.Node{{Name: "n", Capacity: cluster.Resources{GPU: 4}}})
		if err != nil {
			panic(err)
		}
		for i, g := range []int64{2, 3, 8} {
			id := fmt.Sprint("j", i)
			if err := c.AddJob(nil, cluster.Job{ID: id, Tasks: []cluster.Resources{{GPU: g}}}); err != nil {
				panic(err)
			}
		}
		if ok, err := c.Place(nil, "j0"); !ok || err != nil {
			panic("setup")
		}
		return &hinted{Model: c}
	}
	err = requeuetest.TestModel(single, hintedState, []string{"j0"}, []string{"j1", "j2"})
	if err == nil || !strings.Contains(err.Error(), "two pending jobs with equal Shape keys") ||
		!strings.Contains(err.Error(), "list two pending jobs of the same shape") ||
		strings.Contains(err.Error(), "a MayFit that") {
		t.Fatalf("err = %v", err)
	}
	// A model without hints is not asked for them.
	if err := requeuetest.TestModel(func() *toy { return newToy("") }, toyState, []string{"a", "b"}, []string{"d"}); err == nil ||
		strings.Contains(err.Error(), "Shape") || strings.Contains(err.Error(), "MayFit") {
		t.Fatalf("toy without hints: %v", err)
	}
}

// known reports whether job is registered in the model.
func (h *hinted) known(job string) bool {
	_, ok := h.Snapshot().Jobs[job]
	return ok
}

// nodeFull reports whether some node of the model has no free GPU.
func (h *hinted) nodeFull() bool {
	for _, free := range h.Snapshot().Free {
		if free.GPU == 0 {
			return true
		}
	}
	return false
}

// running reports whether job has a task placed on c: a running job
// occupies at least one node.
func running(c *cluster.Model, job string) bool {
	return slices.ContainsFunc(c.Snapshot().Jobs[job], func(node string) bool { return node != "" })
}
