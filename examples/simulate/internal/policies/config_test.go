package policies

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// -min-runtime sets both actions of a queue, -preempt-min-runtime the
// preempt one, overriding; a queue named only there inherits its reclaim
// min-runtime (""). The tree has a top-level queue per class and the teams
// under each; a setting for a queue the tree lacks is left out.
func TestTenureConfigQueues(t *testing.T) {
	set := Settings{
		MinRuntime:        []QueueDuration{{"be", 5 * time.Minute}, {"ls", 30 * time.Minute}, {"nope", time.Hour}},
		PreemptMinRuntime: []QueueDuration{{"be", time.Minute}, {"ls-a", 0}},
		Method:            runtime.MethodQueue,
	}
	cfg := TenureConfig(1, set)
	want := []tenure.Queue{
		{Name: "be", PreemptMinRuntime: "1m", ReclaimMinRuntime: "5m"},
		{Name: "be-a", Parent: "be"},
		{Name: "burstable"},
		{Name: "burstable-a", Parent: "burstable"},
		{Name: "ls", PreemptMinRuntime: "30m", ReclaimMinRuntime: "30m"},
		{Name: "ls-a", Parent: "ls", PreemptMinRuntime: "0s"},
	}
	if diff := cmp.Diff(want, cfg.Queues); diff != "" {
		t.Errorf("queues (-want +got):\n%s", diff)
	}
	if got := cfg.MinRuntimeArgs["reclaimResolveMethod"]; got != "queue" {
		t.Errorf("reclaimResolveMethod %q, want queue", got)
	}
	if _, err := tenure.New(cfg); err != nil {
		t.Fatal(err)
	}
}

// Contenders: strictly higher priorities, or equal ones with equal set;
// never a job ranked apart (a High job of another team queue of the
// victim's class).
func TestContendFunc(t *testing.T) {
	v := &requeue.Victim{Priority: 2, Queue: 7}
	for _, tc := range []struct {
		c     requeue.Contender
		equal bool
		want  bool
	}{
		{requeue.Contender{Priority: 4, Queue: 8}, false, true},
		{requeue.Contender{Priority: 2, Queue: 8}, false, false},
		{requeue.Contender{Priority: 2, Queue: 8}, true, true},
		{requeue.Contender{Priority: 1, Queue: 7}, true, false},
		{requeue.Contender{Priority: 3, Queue: 7}, false, true}, // High, own queue
		{requeue.Contender{Priority: 3, Queue: 8}, true, false}, // High, another team: ranked apart
	} {
		if got := ContendFunc(tc.equal)(v, &tc.c); got != tc.want {
			t.Errorf("contender %+v, equal %v: %v, want %v", tc.c, tc.equal, got, tc.want)
		}
	}
}
