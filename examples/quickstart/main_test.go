package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// want is the cycle's exact output. Every figure in it can be checked by
// hand against main.go: the cycle is at 12:00 (a fixed clock, so the output
// does not depend on the wall clock); vision/train-7 started at 11:20 and
// inherits research's 2h reclaim min-runtime (protected until 13:20);
// nlp/finetune started at 11:20 under nlp's 30m preempt min-runtime (free
// since 11:50) and reaches its expected 1h at 12:20, the cycle's Wake;
// vision/sweep-1 ran 5h against its expected 4h. prod/train-xl needs a
// whole 8-GPU node and vision/sweep-1 frees only 4 GPUs on gpu-1, so that
// attempt rolls back; prod/embed (4 GPUs) fits, so the eviction is
// committed with the 30m default cooldown (12:30). If a policy's behaviour
// changes, this test fails and the walkthrough must be re-read, not just
// re-recorded.
const want = `cycle at 12:00
1. serving reclaims vision/train-7? denied (minruntime_protected) until 2026-03-02T13:20:00Z
   because: reclaim min-runtime 2h from queue research (lca)
2. nlp preempts nlp/finetune? allowed (not_protected)
   because: preempt min-runtime 30m from queue nlp (queue)
3. serving reclaims a job with no queue? denied (queue_unset): fail closed
4. requeue:
   observed expectedruntime: vision/sweep-1 allowed (nominated)
   observed requeue: vision/sweep-1 for prod/train-xl denied (rolled_back)
   observed requeue: vision/sweep-1 allowed (committed)
   evict vision/sweep-1 for [prod/embed], not to run again before 2026-03-02T12:30:00Z
5. wake at 12:20 (nlp/finetune reaches its expected 1h): no decision above changes before
`

func TestQuickstartOutput(t *testing.T) {
	var buf bytes.Buffer
	if err := run(&buf); err != nil {
		t.Fatalf("run: %v", err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("quickstart output (-want +got):\n%s", diff)
	}
}
