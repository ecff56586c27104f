package sim

import (
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

func TestCheckpointRuntime(t *testing.T) {
	for _, tc := range []struct{ rt, cp, save, want int64 }{
		{3000, 600, 60, 3240}, // saves after 600, 1200, 1800, 2400 of work; none at the end
		{3001, 600, 60, 3301}, // ... and after 3000
		{600, 600, 60, 600},   // done exactly at the first checkpoint: no save
		{3000, 0, 60, 3000},   // no checkpoints
		{3000, 600, 0, 3000},  // free checkpoints
	} {
		if got := CheckpointRuntime(tc.rt, tc.cp, tc.save); got != tc.want {
			t.Errorf("CheckpointRuntime(%d, %d, %d) = %d, want %d", tc.rt, tc.cp, tc.save, got, tc.want)
		}
	}
}

// One GPU. B (BE, 3000 s of work) checkpoints every 600 s; L (LS, 100 s)
// arrives at 1300 and reclaims the GPU. By hand:
//
//   - free checkpoints: B saved 1200 s of work (two checkpoints), loses
//     100; L runs 1300–1400; B needs 1800 more: done at 3200.
//   - save 60 s, restore 120 s: B's run is 3240 s (four saves), its saved
//     states come every 660 s, so at 1300 it keeps 660 and loses 640; the
//     restore takes back 120 (540 kept); B restarts at 1400 and needs
//     2700 more: done at 4100.
func TestCheckpointCosts(t *testing.T) {
	b := tj("B", trace.ClassBE, 0, 3000, 1, 1000)
	l := tj("L", trace.ClassLS, 1300, 100, 1, 1000)
	free := testRun{policy: "priority", jobs: []trace.Job{b, l}, nodes: testNodes(1), cfg: Config{Checkpoint: 600}}.sim(t)
	if got := outcomes(free)["B"].Done; got != 3200 {
		t.Errorf("free checkpoints: B done at %d, want 3200", got)
	}
	b.Runtime = CheckpointRuntime(3000, 600, 60)
	costly := testRun{policy: "priority", jobs: []trace.Job{b, l}, nodes: testNodes(1), cfg: Config{Checkpoint: 660, Restore: 120}}.sim(t)
	if got := outcomes(costly)["B"].Done; got != 4100 {
		t.Errorf("save 60 s, restore 120 s: B done at %d, want 4100", got)
	}
}
