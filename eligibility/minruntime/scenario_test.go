package minruntime_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

func elTasks(subgroup string, active, releasing int) []minruntime.Task {
	var ts []minruntime.Task
	for i := 0; i < active; i++ {
		ts = append(ts, minruntime.Task{Subgroup: subgroup, Active: true})
	}
	for i := 0; i < releasing; i++ {
		ts = append(ts, minruntime.Task{Subgroup: subgroup, Active: false})
	}
	return ts
}

func TestScenarioValidator(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	leaf1, leaf2, leaf3 := elID(t, tree, "leaf1"), elID(t, tree, "leaf2"), elID(t, tree, "leaf3")
	// An elastic job in leaf2: preempt 600s (inherited), reclaim 180s.
	elastic := func(start time.Time) *eligibility.Job {
		return &eligibility.Job{ID: "ns/elastic", Queue: leaf2, Start: start, Subgroups: []eligibility.Subgroup{
			{Name: "driver", MinAvailable: 1, Active: 1},
			{Name: "workers", MinAvailable: 2, Active: 5},
		}}
	}
	gang := &eligibility.Job{ID: "ns/gang", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{{Name: "", MinAvailable: 4, Active: 4}}}
	allowed := minruntime.ScenarioDecision{Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("min_available_kept")}}
	reject := func(job, sg string, remaining int64, min int32, until time.Time, res runtime.Resolution, n int) minruntime.ScenarioDecision {
		return minruntime.ScenarioDecision{
			Decision:   eligibility.Decision{Allowed: false, Reason: minruntime.ReasonBelowMinAvailable, Until: until},
			Resolution: res, Job: job, Subgroup: sg, Remaining: remaining, MinAvailable: min, ProtectedUntil: until, Violations: n,
		}
	}
	preempt600 := r.Resolve(runtime.ActionPreempt, leaf2, leaf2)
	reclaimLeaf3 := r.Resolve(runtime.ActionReclaim, leaf3, leaf2) // LCA B -> child C, inherits B's 600s

	tests := []struct {
		name      string
		action    runtime.Action
		preemptor queuetree.ID
		victims   []minruntime.Victim
		now       time.Time
		want      minruntime.ScenarioDecision
	}{
		{name: "elastic protected: down to exactly minAvailable is fine",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("workers", 3, 0)}},
			want:    allowed},
		{name: "elastic protected: one below minAvailable is rejected",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 1)},
		{name: "releasing tasks are not counted twice",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("workers", 3, 2)}},
			want:    allowed},
		{name: "evicting the driver of a protected elastic job is rejected",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("driver", 1, 0)}},
			want:    reject("ns/elastic", "driver", 0, 1, elMin(10), preempt600, 1)},
		{name: "at exactly start+d the elastic job may lose everything",
			preemptor: leaf2, now: elMin(10),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: append(elTasks("workers", 5, 0), elTasks("driver", 1, 0)...)}},
			want:    allowed},
		{name: "one ns before expiry it may not",
			preemptor: leaf2, now: elMin(10).Add(-1),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: append(elTasks("workers", 5, 0), elTasks("driver", 1, 0)...)}},
			want:    reject("ns/elastic", "driver", 0, 1, elMin(10), preempt600, 2)},
		{name: "missing start: not protected, may lose everything",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(time.Time{}), Tasks: elTasks("workers", 5, 0)}},
			want:    allowed},
		{name: "clock skew: protected",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: elastic(elMin(5)), Tasks: elTasks("workers", 5, 0)}},
			want:    reject("ns/elastic", "workers", 0, 2, elMin(15), preempt600, 1)},
		{name: "non-elastic victims are the per-pair filter's business",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: gang, Tasks: elTasks("", 4, 0)}},
			want:    allowed},
		{name: "accumulated scenario: entries of one job are summed",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{
				{Job: elastic(elT0), Tasks: elTasks("workers", 2, 0)}, // recorded victims
				{Job: gang, Tasks: elTasks("", 4, 0)},
				{Job: elastic(elT0), Tasks: elTasks("workers", 2, 0)}, // potential victims
			},
			want: reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 1)},
		// Reclaim with the LCA method: from leaf3 the victim in leaf2 is
		// protected 600s (via C, inheriting B); from leaf1 it gets leaf2's 180s.
		{name: "reclaim from leaf3: 600s",
			action: runtime.ActionReclaim, preemptor: leaf3, now: elMin(5),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    reject("ns/elastic", "workers", 1, 2, elMin(10), reclaimLeaf3, 1)},
		{name: "reclaim from leaf1: 180s already over",
			action: runtime.ActionReclaim, preemptor: leaf1, now: elMin(5),
			victims: []minruntime.Victim{{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)}},
			want:    allowed},
		{name: "untouched subgroup already below minimum does not reject",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{{Job: &eligibility.Job{ID: "partial", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{
				{Name: "a", MinAvailable: 3, Active: 1}, {Name: "b", MinAvailable: 1, Active: 3}}}, Tasks: elTasks("b", 2, 0)}},
			want: allowed},
		{name: "several violators: first named, Until is the last expiry",
			preemptor: leaf2, now: elMin(1),
			victims: []minruntime.Victim{
				{Job: elastic(elT0), Tasks: elTasks("workers", 4, 0)},
				{Job: &eligibility.Job{ID: "late", Queue: leaf2, Start: elMin(3), Subgroups: []eligibility.Subgroup{{Name: "x", MinAvailable: 1, Active: 2}}}, Tasks: elTasks("x", 2, 0)},
			},
			want: func() minruntime.ScenarioDecision {
				d := reject("ns/elastic", "workers", 1, 2, elMin(10), preempt600, 2)
				d.Until = elMin(13)
				return d
			}()},
		{name: "empty scenario", preemptor: leaf2, now: elT0, want: allowed},
		{name: "a nil job evicting an active task fails closed", preemptor: leaf2, now: elT0,
			victims: []minruntime.Victim{{Job: nil, Tasks: elTasks("x", 1, 0)}},
			want: minruntime.ScenarioDecision{Decision: eligibility.Decision{Reason: minruntime.ReasonQueueUnset}, Violations: 1,
				Resolution: runtime.Resolution{Source: queuetree.None, Action: runtime.ActionPreempt}}},
		{name: "a nil job evicting nothing is skipped", preemptor: leaf2, now: elT0,
			victims: []minruntime.Victim{{Job: nil, Tasks: elTasks("x", 0, 1)}}, want: allowed},
	}
	var v minruntime.Validator // reused across cases, as a scheduler would
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
	v := minruntime.Validator{}
	job := &eligibility.Job{ID: "j", Subgroups: []eligibility.Subgroup{{Name: "a", MinAvailable: 1, Active: 2}}}
	for _, active := range []bool{true, false} {
		_, err := v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{
			{Job: job, Tasks: []minruntime.Task{{Subgroup: "a", Active: true}, {Subgroup: "zz", Active: active}}},
		}, elT0)
		if err == nil {
			t.Fatal("no error for an unknown subgroup")
		}
		if want := `eligibility: scenario task of job "j" names unknown subgroup "zz"`; err.Error() != want {
			t.Errorf("Error() = %q, want %q", err.Error(), want)
		}
	}
	// A job with no subgroups has no subgroup to name.
	_, err := v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Job: &eligibility.Job{ID: "bare"}, Tasks: elTasks("", 1, 0)}}, elT0)
	if err == nil {
		t.Error("no error for a task of a job without subgroups")
	}
	// The validator is still usable after an error (and, without a
	// Resolver, fails closed).
	if d, err := v.Validate(runtime.ActionPreempt, 0, []minruntime.Victim{{Job: job, Tasks: elTasks("a", 1, 0)}}, elT0); err != nil || d.Reason != minruntime.ReasonNoResolver {
		t.Errorf("after error: %v, %v", d, err)
	}
}

// The accumulated-scenario pattern: once warmed up, a call allocates nothing.
func TestScenarioValidatorAllocs(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	victims := elBigScenario(tree, 100, 8, 4)
	v := minruntime.Validator{Resolver: r}
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

// With identified tasks and jobs without IDs too (different jobs without an
// ID conflict), a warm call allocates nothing.
func TestScenarioValidatorAllocsIdentified(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	victims := elBigScenario(tree, 50, 4, 4)
	for i := range victims {
		if i%5 == 0 {
			victims[i].Job.ID = "" // no ID
		}
		for k := range victims[i].Tasks {
			victims[i].Tasks[k].ID = fmt.Sprintf("pod-%d", k)
		}
	}
	victims = append(victims, victims[:10]...) // listed again: counted once
	v := minruntime.Validator{Resolver: r}
	p := elID(t, tree, "leaf3")
	if n := testing.AllocsPerRun(20, func() {
		if _, err := v.Validate(runtime.ActionReclaim, p, victims, elMin(1)); err != nil {
			panic(err)
		}
	}); n != 0 {
		t.Errorf("Validate allocates %v per run", n)
	}
}

// elBigScenario builds jobs × subgroups elastic victims (Active 6, min 2,
// started at elT0, spread over the design tree's leaves), each losing tasks
// active tasks per subgroup plus one releasing task.
func elBigScenario(tree *queuetree.Tree, jobs, subgroups, tasks int) []minruntime.Victim {
	leaves := []string{"leaf1", "leaf2", "leaf3"}
	out := make([]minruntime.Victim, jobs)
	for i := range out {
		q, _ := tree.Lookup(leaves[i%len(leaves)])
		j := &eligibility.Job{ID: fmt.Sprintf("ns/job-%03d", i), Queue: q, Start: elT0}
		var ts []minruntime.Task
		for s := 0; s < subgroups; s++ {
			name := fmt.Sprintf("sg-%d", s)
			j.Subgroups = append(j.Subgroups, eligibility.Subgroup{Name: name, MinAvailable: 2, Active: 6})
			ts = append(ts, elTasks(name, tasks, 1)...)
		}
		out[i] = minruntime.Victim{Job: j, Tasks: ts}
	}
	return out
}

// elNaiveScenario is the oracle, written from the documented rules with
// maps and no scratch space: entries of one job merge (same ID, the empty
// one included, and equal Queue, Start and Subgroups), and entries of one ID
// that differ conflict; tasks with one ID count once per job and conflict
// when listed differently; then each protected elastic job's touched
// subgroups are judged: a repeated name first, then garbage counts, then
// the minimum.
func elNaiveScenario(r *runtime.Resolver, action runtime.Action, preemptor queuetree.ID, victims []minruntime.Victim, now time.Time) (ok bool, violations int, reasons map[eligibility.Reason]int, first [3]string, err error) {
	type jobKey = string
	keyOf := func(j *eligibility.Job) jobKey { return j.ID }
	protectedJob := func(j *eligibility.Job) bool {
		d := r.Resolve(action, preemptor, j.Queue).Duration
		return d > 0 && !j.Start.IsZero() && now.Sub(j.Start) < d
	}
	// Subgroups matter only for a protected job: an unprotected one's
	// tasks are not looked at.
	same := func(a, b *eligibility.Job) bool {
		return a.Queue == b.Queue && a.Start.Equal(b.Start) && (!protectedJob(a) || cmp.Equal(a.Subgroups, b.Subgroups))
	}
	reasons = map[eligibility.Reason]int{}
	jobs := map[jobKey]*eligibility.Job{}
	evicted := map[jobKey]map[string]int64{}
	taskSeen := map[jobKey]map[string]minruntime.Task{}
	var order []jobKey
	for _, v := range victims {
		if v.Job == nil {
			continue
		}
		key := keyOf(v.Job)
		if kept, seen := jobs[key]; seen && !same(kept, v.Job) {
			if reasons[minruntime.ReasonConflictingVictims] == 0 {
				first = [3]string{string(minruntime.ReasonConflictingVictims), v.Job.ID, ""}
			}
			reasons[minruntime.ReasonConflictingVictims]++
			continue
		} else if !seen {
			jobs[key] = v.Job
			evicted[key] = map[string]int64{}
			taskSeen[key] = map[string]minruntime.Task{}
			order = append(order, key)
		}
		j := jobs[key]
		if !protectedJob(j) {
			continue
		}
		for _, task := range v.Tasks {
			found := false
			for _, sg := range j.Subgroups {
				found = found || sg.Name == task.Subgroup
			}
			if !found {
				return false, 0, nil, first, errors.New("unknown subgroup")
			}
			if task.ID != "" {
				if prev, dup := taskSeen[key][task.ID]; dup {
					if prev.Subgroup != task.Subgroup || prev.Active != task.Active {
						if reasons[minruntime.ReasonConflictingVictims] == 0 {
							first = [3]string{string(minruntime.ReasonConflictingVictims), j.ID, prev.Subgroup}
						}
						reasons[minruntime.ReasonConflictingVictims]++
					}
					continue
				}
				taskSeen[key][task.ID] = task
			}
			if task.Active {
				evicted[key][task.Subgroup]++
			}
		}
	}
	for _, key := range order {
		j := jobs[key]
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
		nameCount := map[string]int{}
		for _, sg := range j.Subgroups {
			nameCount[sg.Name]++
		}
		for _, sg := range j.Subgroups {
			if seenName[sg.Name] { // the validator reports the first subgroup of a name
				continue
			}
			seenName[sg.Name] = true
			n := evicted[key][sg.Name]
			var reason eligibility.Reason
			switch {
			case n == 0:
				continue
			case nameCount[sg.Name] > 1:
				reason = minruntime.ReasonDuplicateSubgroup
			case sg.Active < 0 || sg.MinAvailable < 0 || n > int64(sg.Active):
				reason = minruntime.ReasonInvalidCounts
			case int64(sg.Active)-n < int64(sg.MinAvailable):
				reason = minruntime.ReasonBelowMinAvailable
			default:
				continue
			}
			total := 0
			for _, c := range reasons {
				total += c
			}
			if total == 0 {
				first = [3]string{string(reason), j.ID, sg.Name}
			}
			reasons[reason]++
		}
	}
	for _, n := range reasons {
		violations += n
	}
	return violations == 0, violations, reasons, first, nil
}

func TestScenarioValidatorMatchesNaiveCount(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	leaves := []queuetree.ID{elID(t, tree, "leaf1"), elID(t, tree, "leaf2"), elID(t, tree, "leaf3"), elID(t, tree, "B")}
	v := minruntime.Validator{Resolver: r}
	rapid.Check(t, func(rt *rapid.T) {
		names := []string{"a", "b", "c"}
		count := func(label string) int32 {
			if rapid.IntRange(0, 15).Draw(rt, label+"Garbage") == 7 { // rare: rapid favours the bounds
				return rapid.SampledFrom([]int32{-1, math.MinInt32, math.MinInt32 + 1, math.MaxInt32}).Draw(rt, label+"Bad")
			}
			return int32(rapid.IntRange(0, 5).Draw(rt, label))
		}
		nJobs := rapid.IntRange(1, 5).Draw(rt, "jobs")
		jobs := make([]*eligibility.Job, nJobs)
		pools := make([][]minruntime.Task, nJobs) // identified tasks, listed alike
		for i := range jobs {
			// Distinct IDs, except now and then a collision or an
			// anonymous job.
			id := fmt.Sprintf("j%d", i)
			switch rapid.IntRange(0, 8).Draw(rt, "idKind") {
			case 3:
				id = "j0"
			case 5:
				id = ""
			}
			j := &eligibility.Job{ID: id, Queue: rapid.SampledFrom(leaves).Draw(rt, "queue")}
			if rapid.IntRange(0, 4).Draw(rt, "noStart") != 2 {
				j.Start = elMin(rapid.IntRange(-5, 15).Draw(rt, "start"))
			}
			nSub := rapid.IntRange(1, 3).Draw(rt, "subgroups")
			if rapid.IntRange(0, 20).Draw(rt, "bare") == 10 {
				nSub = 0
			}
			for s := 0; s < nSub; s++ {
				name := names[s]
				if s > 0 && rapid.IntRange(0, 12).Draw(rt, "repeatName") == 6 { // a repeated name
					name = names[rapid.IntRange(0, s-1).Draw(rt, "repeated")]
				}
				j.Subgroups = append(j.Subgroups, eligibility.Subgroup{Name: name, MinAvailable: count("min"), Active: count("active")})
			}
			for k := 0; k < 3 && nSub > 0; k++ {
				pools[i] = append(pools[i], minruntime.Task{ID: fmt.Sprintf("p%d", k),
					Subgroup: names[rapid.IntRange(0, nSub-1).Draw(rt, "poolSg")], Active: rapid.IntRange(0, 3).Draw(rt, "poolActive") != 1})
			}
			jobs[i] = j
		}
		var victims []minruntime.Victim
		for e := rapid.IntRange(1, 8).Draw(rt, "entries"); e > 0; e-- {
			ji := rapid.IntRange(0, nJobs-1).Draw(rt, "job")
			j := jobs[ji]
			if rapid.IntRange(0, 3).Draw(rt, "copy") == 2 { // an equal copy: the same job
				c := *j
				j = &c
			}
			var ts []minruntime.Task
			for k := rapid.IntRange(0, 6).Draw(rt, "tasks"); k > 0; k-- {
				if kind := rapid.IntRange(0, 4).Draw(rt, "taskKind"); kind == 2 && len(pools[ji]) > 0 {
					task := pools[ji][rapid.IntRange(0, len(pools[ji])-1).Draw(rt, "poolTask")]
					if rapid.IntRange(0, 10).Draw(rt, "twisted") == 5 { // listed differently: a conflict
						task.Active = !task.Active
					}
					ts = append(ts, task)
					continue
				}
				sg := "zz"
				if pick := rapid.IntRange(0, 40).Draw(rt, "sg"); pick != 20 && len(j.Subgroups) > 0 {
					sg = j.Subgroups[pick%len(j.Subgroups)].Name
				}
				ts = append(ts, minruntime.Task{Subgroup: sg, Active: rapid.IntRange(0, 3).Draw(rt, "active") != 1})
			}
			victims = append(victims, minruntime.Victim{Job: j, Tasks: ts})
		}
		action := runtime.Action(rapid.IntRange(0, 1).Draw(rt, "action"))
		preemptor := rapid.SampledFrom(leaves).Draw(rt, "preemptor")
		now := elMin(rapid.IntRange(-5, 20).Draw(rt, "now"))

		got, err := v.Validate(action, preemptor, victims, now)
		wantOK, wantN, wantReasons, wantFirst, wantErr := elNaiveScenario(r, action, preemptor, victims, now)
		if (err != nil) != (wantErr != nil) {
			rt.Fatalf("err = %v, naive err = %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if got.Allowed != wantOK || got.Violations != wantN {
			rt.Fatalf("Validate = %v (violations %d), naive ok=%v violations=%d %v", got, got.Violations, wantOK, wantN, wantReasons)
		}
		if !got.Allowed {
			if gotFirst := [3]string{string(got.Reason), got.Job, got.Subgroup}; gotFirst != wantFirst {
				rt.Fatalf("Validate names %q first, naive %q", gotFirst, wantFirst)
			}
		}
		switch {
		case got.Allowed:
			if got.Reason != eligibility.Reason("min_available_kept") || !got.Until.IsZero() {
				rt.Fatalf("allowed with %+v", got)
			}
		case wantReasons[minruntime.ReasonConflictingVictims] > 0:
			if got.Reason != minruntime.ReasonConflictingVictims || !got.Until.IsZero() {
				rt.Fatalf("conflict not named first, or with an Until: %+v", got)
			}
		default:
			if wantReasons[got.Reason] == 0 || !now.Before(got.ProtectedUntil) || got.Until.Before(got.ProtectedUntil) {
				rt.Fatalf("inconsistent rejection %+v, naive %v", got, wantReasons)
			}
			if got.Reason == minruntime.ReasonBelowMinAvailable && got.Remaining >= int64(got.MinAvailable) {
				rt.Fatalf("below minimum but Remaining %d >= %d", got.Remaining, got.MinAvailable)
			}
		}
	})
}

func TestScenarioDecisionStringProblems(t *testing.T) {
	for _, tc := range []struct {
		d    minruntime.ScenarioDecision
		want []string
	}{
		{minruntime.ScenarioDecision{Decision: eligibility.Decision{Reason: minruntime.ReasonConflictingVictims}, Job: "ns/x", Violations: 1},
			[]string{"rejected (conflicting_victims)", `different jobs with ID "ns/x"`}},
		{minruntime.ScenarioDecision{Decision: eligibility.Decision{Reason: minruntime.ReasonConflictingVictims}, Job: "ns/x", Task: "pod-1", Violations: 2},
			[]string{"rejected (conflicting_victims)", `task "pod-1" of job "ns/x" is listed twice`, "2 violation(s)"}},
		{minruntime.ScenarioDecision{Decision: eligibility.Decision{Reason: minruntime.ReasonInvalidCounts, Until: elMin(10)},
			Job: "ns/w", Subgroup: "s", Remaining: math.MinInt32 - 1, MinAvailable: math.MinInt32, ProtectedUntil: elMin(10), Violations: 1},
			[]string{"rejected (invalid_counts)", `job "ns/w" subgroup "s" has invalid counts`, "-2147483649 left", "2025-01-15T10:10:00Z"}},
		{minruntime.ScenarioDecision{Decision: eligibility.Decision{Reason: minruntime.ReasonDuplicateSubgroup, Until: elMin(10)},
			Job: "ns/d", Subgroup: "w", ProtectedUntil: elMin(10), Violations: 1},
			[]string{"rejected (duplicate_subgroup)", `job "ns/d" has several subgroups named "w"`, "cannot be attributed", "2025-01-15T10:10:00Z"}},
		{minruntime.ScenarioDecision{Decision: eligibility.Decision{Allowed: true, Reason: eligibility.Reason("min_available_kept")}},
			[]string{"scenario allowed (min_available_kept)"}},
	} {
		for _, want := range tc.want {
			if !strings.Contains(tc.d.String(), want) {
				t.Errorf("String() = %q, missing %q", tc.d.String(), want)
			}
		}
	}
	for _, r := range []eligibility.Reason{minruntime.ReasonInvalidCounts, minruntime.ReasonConflictingVictims, minruntime.ReasonDuplicateSubgroup} {
		if !validLabel(r) {
			t.Errorf("reason %q is not a valid label", r)
		}
	}
}

func TestScenarioDecisionString(t *testing.T) {
	d := minruntime.ScenarioDecision{
		Decision: eligibility.Decision{Reason: minruntime.ReasonBelowMinAvailable, Until: elMin(10)},
		Job:      "ns/a", Subgroup: "workers", Remaining: 1, MinAvailable: 2, ProtectedUntil: elMin(10), Violations: 1,
	}
	for _, want := range []string{"rejected", `"ns/a"`, `"workers"`, "keep 1 of min 2", "2025-01-15T10:10:00Z"} {
		if !strings.Contains(d.String(), want) {
			t.Errorf("String() = %q, missing %q", d.String(), want)
		}
	}
}
