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
