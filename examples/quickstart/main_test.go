package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// want is the walkthrough's exact output. Every figure in it can be checked
// by hand against the comments in main.go; if a policy's behaviour changes,
// this test fails and the walkthrough must be re-read, not just re-recorded.
const want = `cycle at 12:00
1. 5 queues; research/vision inherits its reclaim protection from research
2. reclaim vision/train-7 for prod/serving: allowed=false (minruntime_protected), until 13:20
   because: reclaim min-runtime 2h from queue research (lca)
2. reclaim vision/train-8, whose queue was never set: allowed=false (queue_unset)
3. evicting 2 of nlp/elastic-ft's workers: allowed (min_available_kept)
3. evicting 3 of nlp/elastic-ft's workers: rejected, workers would keep 1 < minAvailable 2 while protected (until 12:20)
4. nominated vision/sweep-1: ran 1h past its expected 4h
4. skipped nlp/eval-3: cooldown until 12:30
4. 1 job(s) not yet over their expected runtime (silent); wake at 12:30, the earliest Until of all
5. vision/sweep-1: committed: evict it, [prod/embed] runs in its place; write kai.scheduler/requeue-not-before=2026-03-02T12:30:00Z
5. 2 placement attempt(s), 1 rolled back (prod/train-xl cannot use the room vision/sweep-1 would free: it needs 8 GPUs on one node, and only 4 would be free there, so the model's fit bound ruled that eviction out before any attempt)
6. readiness timeout #1: requeue #1, admissible at 12:01
6. readiness timeout #2: requeue #2, admissible at 12:02
6. readiness timeout #3: requeue #3, admissible at 12:04
6. readiness timeout #4: limit reached, job deactivated
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
