package compare_test

import (
	"os"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/compare"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// Seeds vary a lot; the setting shifts each by about 4. Unpaired, the
// intervals overlap; paired by seed, the difference is clear
// (differences 4, 5, 3: t = 6.93 on 2 degrees of freedom, p = 0.020).
func ExampleWriteText() {
	v := func(xs ...float64) []stats.Value {
		out := make([]stats.Value, len(xs))
		for i, x := range xs {
			out[i] = stats.Exact(x)
		}
		return out
	}
	metrics := []compare.Metric{{Name: "goodput", Label: "goodput GPU-h"}}
	arms := []compare.Arm{
		{Name: "priority", Values: [][]stats.Value{v(100, 200, 300)}},
		{Name: "minruntime", Values: [][]stats.Value{v(104, 205, 303)}},
	}
	compare.WriteText(os.Stdout, compare.Compare([]int64{1, 2, 3}, metrics, arms, compare.Options{}), "policy")
	// Output:
	// 3 runs (seeds 1..3): mean with 95% interval (Student's t; for counts a bootstrap-t, never narrower than Student's t); differences from the first arm paired by seed, paired t-test (a sign test where a value is a lower bound), Holm's step-down over all tested differences.
	// *: differs from priority after Holm's correction over the 1 differences tested (family-wise error <= 0.05); ≥: a lower bound (some runs end with jobs still waiting; such differences get a sign test over the seeds whose order is settled)
	//          metric              priority              minruntime
	//   goodput GPU-h  200.0 [-48.4, 448.4]  204.0 [-43.2, 451.2] *
	// difference from priority, paired by seed: mean [95% interval] (Holm-adjusted p), per policy
	//          metric               minruntime
	//   goodput GPU-h  4.0 [1.5, 6.5] (p 0.02)
	// replicate support: seeds on which the value is below (<), above (>) or equal to (=) priority's, or unsettled by a lower bound (?); ≥k: seeds on which it is a lower bound
	//          metric  priority  minruntime
	//   goodput GPU-h         -       0< 3>
}
