package minruntime_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestKAIDifferences pins the three places where tenure deliberately
// differs from KAI-Scheduler's min-runtime plugin
// (pkg/scheduler/plugins/minruntime/minruntime.go), and checks that the
// package docs say so.
func TestKAIDifferences(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	leaf1, leaf2 := elID(t, tree, "leaf1"), elID(t, tree, "leaf2")
	f := minruntime.Filter{Resolver: r}

	// 1. Min-runtime 0 with a start in the future: allowed (KAI protects
	// until the start). leaf1's reclaim min-runtime is an explicit 0s.
	future := &eligibility.Job{ID: "f", Queue: leaf1, Start: elMin(5), Subgroups: []eligibility.Subgroup{{MinAvailable: 1, Active: 1}}}
	if d := f.Check(runtime.ActionReclaim, leaf2, future, elMin(1)); !d.Allowed || d.Reason != eligibility.Reason("no_min_runtime") {
		t.Errorf("d=0, future start: %+v, want allowed with %q", d, eligibility.Reason("no_min_runtime"))
	}

	// 2. Elastic means active tasks above the minimum: a gang of 4 running
	// (its extra pods pending, which tenure does not see) is not elastic,
	// so the per-pair filter protects it whole (KAI counts the pending pods
	// and lets it through).
	gang := &eligibility.Job{ID: "g", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 4, Active: 4}}}
	if d := f.Check(runtime.ActionPreempt, leaf2, gang, elMin(1)); d.Allowed {
		t.Errorf("protected gang: %+v, want denied", d)
	}

	// 3. Releasing tasks do not count as running. A subgroup with min 2 has
	// 3 active pods and 2 more already releasing (evicted by an earlier
	// decision, so not listed in this scenario); the scenario takes 2 of the
	// active ones. tenure counts what stays active: 3 - 2 = 1 < 2, rejected.
	// KAI's validators subtract the scenario's victims from every pod in an
	// active-used status, Releasing included: 5 - 2 = 3 >= 2, allowed.
	const minAvailable, active, releasing, evicted = 2, 3, 2, 2
	if kai := active + releasing - evicted; kai < minAvailable {
		t.Fatalf("KAI's count %d would reject too: the case does not tell the rules apart", kai)
	}
	half := &eligibility.Job{ID: "h", Queue: leaf2, Start: elT0, Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: minAvailable, Active: active}}}
	v := minruntime.Validator{Resolver: r}
	d, err := v.Validate(runtime.ActionPreempt, leaf2, []minruntime.Victim{{Job: half, Tasks: elTasks("w", evicted, 0)}}, elMin(1))
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonBelowMinAvailable || d.Remaining != active-evicted {
		t.Errorf("releasing tasks: %+v, %v; want rejected with %d remaining", d, err, active-evicted)
	}

	// The docs state each difference.
	for file, phrases := range map[string][]string{
		"doc.go":               {"Differences from KAI-Scheduler", "pending and", "Releasing", "min-runtime of 0 never protects"},
		"../../runtime/doc.go": {"a min-runtime of 0", "never protects, even when the start lies in the future"},
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
		for _, p := range phrases {
			if !strings.Contains(text, p) {
				t.Errorf("%s does not say %q", file, p)
			}
		}
	}
}

// TestKAIPerSubgroupMinAvailable: the scenario validator counts
// MinAvailable per subgroup, as KAI-Scheduler's validVictimForMinAvailable
// (pkg/scheduler/plugins/minruntime/minruntime.go; PRs #443, #1416):
// only the subgroups that lose a task are checked, each must keep
// active − evicted >= MinAvailable (equality allowed), and a task without
// a subgroup name belongs to the subgroup named "" (KAI's default
// subgroup). A job-wide count would answer differently in the cases
// marked so.
func TestKAIPerSubgroupMinAvailable(t *testing.T) {
	tree, r := elDesignTree(t, runtime.MethodLCA)
	leaf2 := elID(t, tree, "leaf2")
	v := minruntime.Validator{Resolver: r}
	job := func(sgs ...eligibility.Subgroup) *eligibility.Job {
		return &eligibility.Job{ID: "e", Queue: leaf2, Start: elT0, Subgroups: sgs}
	}
	sg := func(name string, minAvailable, active int32) eligibility.Subgroup {
		return eligibility.Subgroup{Name: name, MinAvailable: minAvailable, Active: active}
	}
	for _, tt := range []struct {
		name     string
		job      *eligibility.Job
		tasks    []minruntime.Task
		allowed  bool
		subgroup string
	}{
		{"down to MinAvailable exactly", job(sg("a", 2, 4)), elTasks("a", 2, 0), true, ""},
		{"one below MinAvailable", job(sg("a", 2, 4)), elTasks("a", 3, 0), false, "a"},
		// Job-wide 5 − 1 = 4 >= 1 + 1 would allow; b alone falls to 0 < 1.
		{"a subgroup emptied while the job stays above its total", job(sg("a", 1, 4), sg("b", 1, 1)), elTasks("b", 1, 0), false, "b"},
		// Job-wide 6 − 1 = 5 < 1 + 5 would reject; c loses nothing and is
		// not checked.
		{"an untouched subgroup already below its minimum", job(sg("a", 1, 4), sg("c", 5, 2)), elTasks("a", 1, 0), true, ""},
		{"the second touched subgroup fails", job(sg("a", 1, 4), sg("b", 2, 3)), append(elTasks("a", 3, 0), elTasks("b", 2, 0)...), false, "b"},
		{"both touched subgroups at their minimum", job(sg("a", 1, 4), sg("b", 2, 3)), append(elTasks("a", 3, 0), elTasks("b", 1, 0)...), true, ""},
		{"the default subgroup", job(sg("", 1, 3)), elTasks("", 2, 0), true, ""},
		{"the default subgroup, one too many", job(sg("", 1, 3)), elTasks("", 3, 0), false, ""},
	} {
		d, err := v.Validate(runtime.ActionPreempt, leaf2, []minruntime.Victim{{Job: tt.job, Tasks: tt.tasks}}, elMin(1))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if d.Allowed != tt.allowed || !tt.allowed && (d.Reason != minruntime.ReasonBelowMinAvailable || d.Subgroup != tt.subgroup) {
			t.Errorf("%s: %v, want allowed %v (subgroup %q)", tt.name, d, tt.allowed, tt.subgroup)
		}
	}
}
