package sim

import (
	"math"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Goodput is measured to the horizon, so the gap between two policies does
// not depend on how long the tail after the last arrival is, once both
// have done what they can. By hand, on one GPU:
//
//   - I: BE, arrives at 0, needs far more than any horizon (infeasible).
//   - L: LS, arrives at 600, needs 600 s.
//
// priority: L reclaims the GPU at 600; I loses 0–600 and restarts when L
// is done at 1200. Goodput = L's 600 + I's H − 1200 = H − 600 GPU-s.
// minruntime with BE protected for 1h: L waits until 3600, I loses 0–3600
// and restarts at 4200. Goodput = 600 + H − 4200 = H − 3600 GPU-s.
// The gap is 3000 GPU-s (0.833 GPU-h) for every horizon H past 4200; the
// old measure (useful GPU time up to the last arrival, 600) saw 0 for both.
func TestGoodputGapIndependentOfTail(t *testing.T) {
	jobs := []trace.Job{tj("I", trace.ClassBE, 0, 1<<30, 1, 1000), tj("L", trace.ClassLS, 600, 600, 1, 1000)}
	protect := testSettings
	protect.MinRuntime = []QueueDuration{{Queue: "be", D: time.Hour}}
	goodput := func(policy string, set Settings, horizon int64) float64 {
		s := testRun{policy: policy, set: set, jobs: jobs, nodes: testNodes(1),
			cfg: Config{Horizon: horizon, WindowEnd: 600}}.sim(t)
		return s.m.result(s).GoodputGPUHours * 3600
	}
	noProtect := testSettings
	noProtect.MinRuntime = nil
	for _, h := range []int64{10000, 50000, 200000} {
		p, m := goodput("priority", noProtect, h), goodput("minruntime", protect, h)
		if math.Abs(p-float64(h-600)) > 1e-6 || math.Abs(m-float64(h-3600)) > 1e-6 {
			t.Errorf("horizon %d: goodput priority %.0f, minruntime %.0f GPU-s; want %d, %d", h, p, m, h-600, h-3600)
		}
		if gap := p - m; math.Abs(gap-3000) > 1e-6 {
			t.Errorf("horizon %d: gap %.0f GPU-s, want 3000 whatever the tail", h, gap)
		}
	}
}
