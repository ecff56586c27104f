package eligibility_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

func elTasks(subgroup string, active, releasing int) []eligibility.ScenarioTask {
	var ts []eligibility.ScenarioTask
	for i := 0; i < active; i++ {
		ts = append(ts, eligibility.ScenarioTask{Subgroup: subgroup, Active: true})
	}
	for i := 0; i < releasing; i++ {
		ts = append(ts, eligibility.ScenarioTask{Subgroup: subgroup, Active: false})
	}
	return ts
}

func TestScenarioValidator(t *testing.T) {
	tree, r := elSeed002(t, runtime.MethodLCA)
	leaf1, leaf2, leaf3 := elID(t, tree, "leaf1"), elID(t, tree, "leaf2"), elID(t, tree, "leaf3")
	// An elastic job in leaf2: preempt 600s (inherited), reclaim 180s.
	elastic := func(start time.Time) *eligibility.Job {
		return &eligibility.Job{ID: "ns/elastic", Queue: leaf2, Start: start, Subgroups: []eligibility.Subgroup{
			{Name: "driver", MinAvailable: 1, Active: 1},
			{Name: "workers", MinAvailable: 2, Active: 5},
		}}
	}
	gang := &eligibility.Job{ID: "ns/gang", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{{Name: "", MinAvailable: 4, Active: 4}}}
	allowed := eligibility.ScenarioDecision{Decision: eligibility.Decision{Allowed: true, Reason: eligibility.ReasonMinAvailableKept}}
	reject := func(job, sg string, remaining, min int32, until time.Time, res runtime.Resolution, n int) eligibility.ScenarioDecision {
		return eligibility.ScenarioDecision{
			Decision:   eligibility.Decision{Allowed: false, Reason: eligibility.ReasonBelowMinAvailable, Until: until},
			Resolution: res, Job: job, Subgroup: sg, Remaining: remaining, MinAvailable: min, ProtectedUntil: until, Violations: n,
		}
	}
	preempt600 := r.Resolve(runtime.ActionPreempt, leaf2, leaf2)
	reclaimLeaf3 := r.Resolve(runtime.ActionReclaim, leaf3, leaf2) // LCA B -> child C, inherits B's 600s

	tests := []struct {
		name      string
		action    runtime.Action
		preemptor queuetree.ID
		victims   []eligibility.ScenarioJob
		now       time.Time
		want      eligibility.ScenarioDecision
	}{
		{name: "elastic protected: down to exactly minAvailable is fine",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("workers", 3, 0)}},
			want:    allowed},
		{name: "elastic protected: one below minAvailable is rejected",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 1)},
		{name: "releasing tasks are not counted twice",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("workers", 3, 2)}},
			want:    allowed},
		{name: "evicting the driver of a protected elastic job is rejected",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("driver", 1, 0)}},
			want:    reject("ns/elastic", "driver", 0, 1, elMin(10), preempt600, 1)},
		{name: "at exactly start+d the elastic job may lose everything",
			preemptor: leaf2, now: elMin(10),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: append(elTasks("workers", 5, 0), elTasks("driver", 1, 0)...)}},
			want:    allowed},
		{name: "one ns before expiry it may not",
			preemptor: leaf2, now: elMin(10).Add(-1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: append(elTasks("workers", 5, 0), elTasks("driver", 1, 0)...)}},
			want:    reject("ns/elastic", "driver", 0, 1, elMin(10), preempt600, 2)},
		{name: "missing start: not protected, may lose everything",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(time.Time{}), Tasks: elTasks("workers", 5, 0)}},
			want:    allowed},
		{name: "clock skew: protected",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: elastic(elMin(5)), Tasks: elTasks("workers", 5, 0)}},
			want:    reject("ns/elastic", "workers", 0, 2, elMin(15), preempt600, 1)},
		{name: "non-elastic victims are the per-pair filter's business",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: gang, Tasks: elTasks("", 4, 0)}},
			want:    allowed},
		{name: "accumulated scenario: entries of one job are summed",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{
				{Job: elastic(elT0), Tasks: elTasks("workers", 2, 0)}, // recorded victims
				{Job: gang, Tasks: elTasks("", 4, 0)},
				{Job: elastic(elT0), Tasks: elTasks("workers", 2, 0)}, // potential victims
			},
			want: reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 1)},
		// Reclaim with the LCA method: from leaf3 the victim in leaf2 is
		// protected 600s (via C, inheriting B); from leaf1 it gets leaf2's 180s.
		{name: "reclaim from leaf3: 600s",
			action: runtime.ActionReclaim, preemptor: leaf3, now: elMin(5),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    reject("ns/elastic", "workers", 1, 2, elMin(10), reclaimLeaf3, 1)},
		{name: "reclaim from leaf1: 180s already over",
			action: runtime.ActionReclaim, preemptor: leaf1, now: elMin(5),
			victims: []eligibility.ScenarioJob{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    allowed},
		{name: "untouched subgroup already below minimum does not reject",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{{Job: &eligibility.Job{ID: "partial", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{
				{Name: "a", MinAvailable: 3, Active: 1}, {Name: "b", MinAvailable: 1, Active: 3}}}, Tasks: elTasks("b", 2, 0)}},
			want: allowed},
		{name: "several violators: first named, Until is the last expiry",
			preemptor: leaf2, now: elMin(1),
			victims: []eligibility.ScenarioJob{
				{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)},
				{Job: &eligibility.Job{ID: "late", Queue: leaf2, Start: elMin(3), Subgroups: []eligibility.Subgroup{{Name: "x", MinAvailable: 1, Active: 2}}}, Tasks: elTasks("x", 2, 0)},
			},
			want: func() eligibility.ScenarioDecision {
				d := reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 2)
				d.Until = elMin(13)
				return d
			}()},
		{name: "empty scenario", preemptor: leaf2, now: elT0, want: allowed},
		{name: "nil job entries are skipped", preemptor: leaf2, now: elT0,
			victims: []eligibility.ScenarioJob{{Job: nil, Tasks: elTasks("x", 1, 0)}}, want: allowed},
	}
	var v eligibility.ScenarioValidator // reused across cases, as a scheduler would
	v.Resolver = r
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := v.Validate(tc.action, tc.preemptor, tc.victims, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScenarioValidatorUnknownSubgroup(t *testing.T) {
	v := eligibility.ScenarioValidator{}
	job := &eligibility.Job{ID: "j", Subgroups: []eligibility.Subgroup{{Name: "a", MinAvailable: 1, Active: 2}}}
	for _, active := range []bool{true, false} {
		_, err := v.Validate(runtime.ActionPreempt, 0, []eligibility.ScenarioJob{
			{Job: job, Tasks: []eligibility.ScenarioTask{{Subgroup: "a", Active: true}, {Subgroup: "zz", Active: active}}},
		}, elT0)
		var e eligibility.UnknownSubgroupError
		if !errors.As(err, &e) || e != (eligibility.UnknownSubgroupError{Job: "j", Subgroup: "zz"}) {
			t.Fatalf("err = %v, want UnknownSubgroupError", err)
		}
		if want := `eligibility: scenario task of job "j" names unknown subgroup "zz"`; err.Error() != want {
			t.Errorf("Error() = %q, want %q", err.Error(), want)
		}
	}
	// A job with no subgroups has no subgroup to name.
	_, err := v.Validate(runtime.ActionPreempt, 0, []eligibility.ScenarioJob{{Job: &eligibility.Job{ID: "bare"}, Tasks: elTasks("", 1, 0)}}, elT0)
	if err == nil {
		t.Error("no error for a task of a job without subgroups")
	}
	// The validator is still usable after an error.
	if d, err := v.Validate(runtime.ActionPreempt, 0, []eligibility.ScenarioJob{{Job: job, Tasks: elTasks("a", 1, 0)}}, elT0); err != nil || !d.Allowed {
		t.Errorf("after error: %v, %v", d, err)
	}
}

// The accumulated-scenario pattern: once warmed up, a call allocates nothing.
func TestScenarioValidatorAllocs(t *testing.T) {
	tree, r := elSeed002(t, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	v := eligibility.ScenarioValidator{Resolver: r}
	p := elID(t, tree, "leaf3")
	if n := testing.AllocsPerRun(20, func() {
		for k := 1; k <= len(victims); k += 7 { // the victim set grows
			if _, err := v.Validate(runtime.ActionReclaim, p, victims[:k], elMin(1)); err != nil {
				panic(err)
			}
		}
	}); n != 0 {
		t.Errorf("Validate allocates %v per accumulated run", n)
	}
}

// elBigScenario builds jobs × subgroups elastic victims (Active 6, min 2,
// started at elT0, spread over the seed 002 leaves), each losing tasks
// active tasks per subgroup plus one releasing task.
func elBigScenario(tree *queuetree.Tree, jobs, subgroups, tasks int) []eligibility.ScenarioJob {
	leaves := []string{"leaf1", "leaf2", "leaf3"}
	out := make([]eligibility.ScenarioJob, jobs)
	for i := range out {
		q, _ := tree.Lookup(leaves[i%len(leaves)])
		j := &eligibility.Job{ID: fmt.Sprintf("ns/job-%03d", i), Queue: q, Start: elT0}
		var ts []eligibility.ScenarioTask
		for s := 0; s < subgroups; s++ {
			name := fmt.Sprintf("sg-%d", s)
			j.Subgroups = append(j.Subgroups, eligibility.Subgroup{Name: name, MinAvailable: 2, Active: 6})
			ts = append(ts, elTasks(name, tasks, 1)...)
		}
		out[i] = eligibility.ScenarioJob{Job: j, Tasks: ts}
	}
	return out
}

// elNaiveScenario is the oracle: a per-subgroup count in maps, one job at a
// time, straight from the DESIGN §4.3 rule.
func elNaiveScenario(r *runtime.Resolver, action runtime.Action, preemptor queuetree.ID, victims []eligibility.ScenarioJob, now time.Time) (ok bool, violations int, err error) {
	jobs := map[string]*eligibility.Job{}
	evicted := map[string]map[string]int{}
	var order []string
	for _, v := range victims {
		if v.Job == nil {
			continue
		}
		if _, seen := jobs[v.Job.ID]; !seen {
			jobs[v.Job.ID] = v.Job
			evicted[v.Job.ID] = map[string]int{}
			order = append(order, v.Job.ID)
		}
		j := jobs[v.Job.ID]
		for _, task := range v.Tasks {
			found := false
			for _, sg := range j.Subgroups {
				found = found || sg.Name == task.Subgroup
			}
			if !found {
				return false, 0, errors.New("unknown subgroup")
			}
			if task.Active {
				evicted[j.ID][task.Subgroup]++
			}
		}
	}
	for _, id := range order {
		j := jobs[id]
		elastic := false
		for _, sg := range j.Subgroups {
			elastic = elastic || sg.MinAvailable < sg.Active
		}
		d := r.Resolve(action, preemptor, j.Queue).Duration
		protected := d > 0 && !j.Start.IsZero() && now.Sub(j.Start) < d
		if !elastic || !protected {
			continue
		}
		seenName := map[string]bool{}
		for _, sg := range j.Subgroups {
			if seenName[sg.Name] { // the validator reports the first subgroup of a name
				continue
			}
			seenName[sg.Name] = true
			if n := evicted[id][sg.Name]; n > 0 && int(sg.Active)-n < int(sg.MinAvailable) {
				violations++
			}
		}
	}
	return violations == 0, violations, nil
}

func TestScenarioValidatorMatchesNaiveCount(t *testing.T) {
	tree, r := elSeed002(t, runtime.MethodLCA)
	leaves := []queuetree.ID{elID(t, tree, "leaf1"), elID(t, tree, "leaf2"), elID(t, tree, "leaf3"), elID(t, tree, "B")}
	v := eligibility.ScenarioValidator{Resolver: r}
	rapid.Check(t, func(rt *rapid.T) {
		names := []string{"a", "b", "c"}
		nJobs := rapid.IntRange(0, 5).Draw(rt, "jobs")
		jobs := make([]*eligibility.Job, nJobs)
		for i := range jobs {
			j := &eligibility.Job{ID: fmt.Sprintf("j%d", i), Queue: rapid.SampledFrom(leaves).Draw(rt, "queue")}
			if rapid.Bool().Draw(rt, "hasStart") {
				j.Start = elMin(rapid.IntRange(-5, 15).Draw(rt, "start"))
			}
			nSub := rapid.IntRange(0, 3).Draw(rt, "subgroups")
			for s := 0; s < nSub; s++ {
				j.Subgroups = append(j.Subgroups, eligibility.Subgroup{Name: names[s],
					MinAvailable: int32(rapid.IntRange(0, 4).Draw(rt, "min")), Active: int32(rapid.IntRange(0, 5).Draw(rt, "active"))})
			}
			jobs[i] = j
		}
		var victims []eligibility.ScenarioJob
		for e := rapid.IntRange(0, 8).Draw(rt, "entries"); e > 0 && nJobs > 0; e-- {
			j := jobs[rapid.IntRange(0, nJobs-1).Draw(rt, "job")]
			var ts []eligibility.ScenarioTask
			for k := rapid.IntRange(0, 4).Draw(rt, "tasks"); k > 0; k-- {
				sg := rapid.SampledFrom(append(names, "zz")).Draw(rt, "sg")
				if rapid.IntRange(0, 20).Draw(rt, "unknown") > 0 && len(j.Subgroups) > 0 {
					sg = j.Subgroups[rapid.IntRange(0, len(j.Subgroups)-1).Draw(rt, "known")].Name
				}
				ts = append(ts, eligibility.ScenarioTask{Subgroup: sg, Active: rapid.Bool().Draw(rt, "active")})
			}
			victims = append(victims, eligibility.ScenarioJob{Job: j, Tasks: ts})
		}
		action := runtime.Action(rapid.IntRange(0, 1).Draw(rt, "action"))
		preemptor := rapid.SampledFrom(leaves).Draw(rt, "preemptor")
		now := elMin(rapid.IntRange(-5, 30).Draw(rt, "now"))

		got, err := v.Validate(action, preemptor, victims, now)
		wantOK, wantN, wantErr := elNaiveScenario(r, action, preemptor, victims, now)
		if (err != nil) != (wantErr != nil) {
			rt.Fatalf("err = %v, naive err = %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if got.Allowed != wantOK || got.Violations != wantN {
			rt.Fatalf("Validate = %v (violations %d), naive ok=%v violations=%d", got, got.Violations, wantOK, wantN)
		}
		if !got.Allowed {
			if got.Remaining >= got.MinAvailable || !now.Before(got.ProtectedUntil) || got.Until.Before(got.ProtectedUntil) {
				rt.Fatalf("inconsistent rejection %+v", got)
			}
		}
	})
}

func TestScenarioDecisionString(t *testing.T) {
	d := eligibility.ScenarioDecision{
		Decision: eligibility.Decision{Reason: eligibility.ReasonBelowMinAvailable, Until: elMin(10)},
		Job:      "ns/a", Subgroup: "workers", Remaining: 1, MinAvailable: 2, ProtectedUntil: elMin(10), Violations: 1,
	}
	for _, want := range []string{"rejected", `"ns/a"`, `"workers"`, "keep 1 of min 2", "2025-01-15T10:10:00Z"} {
		if !strings.Contains(d.String(), want) {
			t.Errorf("String() = %q, missing %q", d.String(), want)
		}
	}
}
