package requeuetest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

// hinted wraps the reference Cluster with a defect in its hints; the
// Cluster's Evict, Place, Shape, MayFit and Domains are used otherwise.
type hinted struct {
	*cluster.Model
	bug   string
	calls int
}

func (h *hinted) MayFit(victim string, jobs []string, fits []bool) {
	h.Model.MayFit(victim, jobs, fits)
	for i, id := range jobs {
		switch {
		case h.bug == "liar" && victim == "" && h.known(id):
			// Ignores the free space the victim does not touch: claims
			// nothing fits without an eviction.
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

func (h *hinted) MayFitAfter(victims []string, job string) bool {
	may := h.Model.MayFitAfter(victims, job)
	unknown := !h.known(job)
	for _, v := range victims {
		unknown = unknown || !h.known(v)
	}
	switch {
	case h.bug == "set-liar" && len(victims) > 1 && !unknown:
		// Claims that no set of two or more victims makes room.
		return false
	case h.bug == "set-unknown-job" && !h.known(job):
		return false
	case h.bug == "set-unknown-victim" && unknown && h.known(job):
		return false
	case h.bug == "set-mutates" && running(h.Model, "r-small"):
		_ = h.Model.Evict(nil, "r-small")
	}
	return may
}

func (h *hinted) MayEverFit(job string) bool {
	switch {
	case h.bug == "ever-liar" && job == "p-gang":
		// Compares the gang with one node's capacity, not the cluster's.
		return false
	case h.bug == "ever-unknown" && !h.known(job):
		return false
	case h.bug == "ever-running" && running(h.Model, job):
		return false
	case h.bug == "ever-true":
		return true
	case h.bug == "ever-mutates" && running(h.Model, "r-small"):
		_ = h.Model.Evict(nil, "r-small")
	}
	return h.Model.MayEverFit(job)
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

func (h *hinted) Domains(job string, dst []string) []string {
	n := len(dst)
	dst = h.Model.Domains(job, dst)
	switch {
	case h.bug == "domains-omit" && len(dst)-n > 1:
		return dst[:len(dst)-1] // forgets the last node of a job on several
	case h.bug == "domains-none-for-big" && job == "r-big":
		return dst[:n] // nothing for a running job
	case h.bug == "domains-dup" && len(dst) > n:
		return append(dst, dst[n])
	case h.bug == "domains-pending" && h.known(job) && !running(h.Model, job):
		return append(dst, "n0")
	case h.bug == "domains-unknown" && !h.known(job):
		return append(dst, "n0")
	case h.bug == "domains-drops-dst":
		return dst[n:]
	case h.bug == "domains-unstable" && len(dst) > n:
		h.calls++
		if h.calls%2 == 0 {
			return dst[:n]
		}
	case h.bug == "domains-mutates" && running(h.Model, "r-small"):
		_ = h.Model.Evict(nil, "r-small")
	}
	return dst
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
		{"set-liar", "the engine would pass over a set that makes room"},
		{"set-unknown-job", "= false for a job the model does not know (the contract: true for an unknown job)"},
		{"set-unknown-victim", "(the contract: true when a victim is unknown)"},
		{"set-mutates", "changed the state (the contract: MayFitAfter must not)"},
		{"ever-liar", "the engine would never search for a contender evictions can serve"},
		{"ever-unknown", "= false for a job the model does not know (the contract: true for an unknown job)"},
		{"ever-running", "(the contract: true for a running job)"},
		{"ever-mutates", "changed the state (the contract: MayEverFit must not)"},
		{"domains-omit", "the engine would keep a victim the contender needs"},
		{"domains-none-for-big", "the engine would keep a victim the contender needs"},
		{"domains-dup", "(the contract: no duplicates)"},
		{"domains-pending", "for a pending job (the contract: nothing appended for an unknown or pending job)"},
		{"domains-unknown", "for a job the model does not know (the contract: nothing appended"},
		{"domains-drops-dst", "dst's contents lost"},
		{"domains-unstable", "in the same state (the contract: the same keys for a given state)"},
		{"domains-mutates", "changed the state (the contract: Domains must not)"},
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
// contender that fits without it.
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
	// Nor does a capacity bound that never rules anything out about
	// MayEverFit's.
	err = requeuetest.TestModel(hintedModel("ever-true"), hintedState, clusterRunning, clusterPending)
	if err == nil || !strings.Contains(err.Error(), "a MayEverFit that rules a pending job out") || strings.Contains(err.Error(), "a MayFit that") {
		t.Fatalf("err = %v", err)
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
	// On one node, no job lands apart from the domains of the jobs evicted
	// for it: the locality contract is never put to the test either.
	err = requeuetest.TestModel(single, hintedState, []string{"j0"}, []string{"j1", "j2"})
	if err == nil || !strings.Contains(err.Error(), "two pending jobs with equal Shape keys") ||
		!strings.Contains(err.Error(), "lands apart from the Domains of one of the evicted jobs") ||
		!strings.Contains(err.Error(), "list running jobs on different domains") {
		t.Fatalf("err = %v", err)
	}
	// A model without hints is not asked for them.
	if err := requeuetest.TestModel(func() *toy { return newToy("") }, toyState, []string{"a", "b"}, []string{"d"}); err == nil ||
		strings.Contains(err.Error(), "Domains") || strings.Contains(err.Error(), "MayFit") {
		t.Fatalf("toy without hints: %v", err)
	}
}

// known reports whether job is registered in the model.
func (h *hinted) known(job string) bool {
	_, ok := h.Snapshot().Jobs[job]
	return ok
}

// running reports whether job has a task placed on c: a running job
// occupies at least one node.
func running(c *cluster.Model, job string) bool { return len(c.Domains(job, nil)) > 0 }
