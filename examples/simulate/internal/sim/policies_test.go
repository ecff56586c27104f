package sim

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// A BE job started at 0 is protected for 5 minutes: the LS job arriving at
// 10 evicts it at exactly 300 (start + min-runtime, a cycle the filter's
// Until asked for), not at 10 as plain priority does.
func TestMinRuntimeDelaysEviction(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassBE, 0, 1000, 1, 1000),
		tj("B", trace.ClassLS, 10, 50, 1, 1000),
	}
	for _, tc := range []struct {
		policy string
		want   map[string]jobOutcome
	}{
		{"priority", map[string]jobOutcome{"A": {Wait: 60, Done: 1060, Evictions: 1}, "B": {Wait: 0, Done: 60}}},
		{"minruntime", map[string]jobOutcome{"A": {Wait: 350, Done: 1350, Evictions: 1}, "B": {Wait: 290, Done: 350}}},
	} {
		s := testRun{policy: tc.policy, jobs: jobs, nodes: testNodes(1)}.sim(t)
		if diff := cmp.Diff(tc.want, outcomes(s)); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.policy, diff)
		}
	}
}

// The reclaim method decides when a per-team setting protects: be-a sets
// 1h, its class be 5m. An LS job reclaiming from be-a resolves, by the LCA
// method, from the child of the lowest common ancestor (the root) toward
// the victim: the class queue be, 5m; by the queue method from be-a, 1h.
func TestReclaimMethod(t *testing.T) {
	jobs := []trace.Job{tj("A", trace.ClassBE, 0, 100000, 1, 1000), tj("L", trace.ClassLS, 100, 50, 1, 1000)}
	set := testSettings
	set.MinRuntime = append([]QueueDuration{{Queue: "be-a", D: time.Hour}}, set.MinRuntime...)
	for _, tc := range []struct {
		method runtime.Method
		start  int64
	}{{runtime.MethodLCA, 300}, {runtime.MethodQueue, 3600}} {
		set.Method = tc.method
		s := testRun{policy: "minruntime", set: set, jobs: jobs, nodes: testNodes(1)}.sim(t)
		if got := s.st[1].start; got != tc.start {
			t.Errorf("%s: L started at %d, want %d", tc.method, got, tc.start)
		}
	}
}

// The requeue pass runs after allocation and preemption, with the jobs they
// left pending as contenders. X (BE) has run past its 1h expected runtime
// when Z (BE) arrives at 4000: no preemption can take an equal-priority
// job, so with equal-priority contenders the engine evicts X (cause
// requeue) and writes its not-before (4000 s + 30m); with strictly higher
// contenders (tenure's default) Z waits.
func TestRequeueEqualContenders(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 100000, 1, 1000),
		tj("Z", trace.ClassBE, 4000, 100, 1, 1000),
	}
	for _, equal := range []bool{true, false} {
		set := testSettings
		set.RequeueEqual = equal
		s := testRun{policy: "requeue", set: set, jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
		r := s.m.result(s)
		if !equal {
			if r.Evictions.Total != 0 || s.st[1].status != statusPending {
				t.Errorf("higher: evictions %+v, Z status %d; want none, Z pending", r.Evictions, s.st[1].status)
			}
			continue
		}
		if diff := cmp.Diff(report.Evictions{Total: 1, Requeue: 1, BE: 1}, r.Evictions); diff != "" || s.st[1].start != 4000 {
			t.Errorf("Z started %d (want 4000); evictions (-want +got):\n%s", s.st[1].start, diff)
		}
		if got, want := s.pol.rq.ann[0][eligibility.AnnotationRequeueNotBefore], "2023-01-01T01:36:40Z"; got != want {
			t.Errorf("X not-before = %q, want %q (4000 s + 30m)", got, want)
		}
		if got := s.pol.rq.outcomes["committed"]; got != 1 {
			t.Errorf("committed = %d, want 1", got)
		}
	}
}

// The nominator's Until drives the pass: Z is waiting from 1000, X reaches
// its expected runtime at 3600, and the pass asked for a cycle then.
func TestRequeueWakesAtExpectedRuntime(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 100000, 1, 1000),
		tj("Z", trace.ClassBE, 1000, 100, 1, 1000),
	}
	s := testRun{policy: "requeue", jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
	if s.st[1].start != 3600 || s.st[0].evictions != 1 {
		t.Errorf("Z started %d, X evictions %d; want 3600, 1", s.st[1].start, s.st[0].evictions)
	}
}

// Time-based preemption rotates two equal-priority LS jobs that cannot run
// together. B (created 10) evicts A once A has held the GPU longer than
// minAdmit (2h: the first cycle after 7200 is 7210). A is re-stamped with
// its preemption instant (backoff.QueueEntry.SamePriorityPreempted), so B is
// not "newer" than A: A waits until B in turn has held the GPU longer than
// 2h (7210 + 7210 = 14420), and so on: 21630, 28840. Every pick is an
// expired one, counted as time-based.
func TestTimeBasedRotation(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 0, 100000, 1, 1000),
		tj("B", trace.ClassLS, 10, 100000, 1, 1000),
	}
	s := testRun{policy: "timebased", jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 30000}}.sim(t)
	r := s.m.result(s)
	if diff := cmp.Diff(report.Evictions{Total: 4, TimeBased: 4, LS: 4}, r.Evictions); diff != "" {
		t.Errorf("evictions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"expired": 4}, s.pol.picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	if s.st[0].status != statusRunning || s.st[0].start != 28840 || s.st[1].start != 21630 {
		t.Errorf("A: status %d start %d, B last start %d; want A running since 28840, B last started 21630",
			s.st[0].status, s.st[0].start, s.st[1].start)
	}
	// minruntime never lets equal priorities preempt: B waits for A.
	s = testRun{policy: "minruntime", jobs: jobs, nodes: testNodes(1)}.sim(t)
	if got := outcomes(s)["B"]; got.Wait != 99990 {
		t.Errorf("minruntime: B wait %d, want 99990", got.Wait)
	}
}

// A "newer" pick in the preemptor's own team queue is a preempt. On a
// 2-GPU node with 100 CPUs: H (LS, 40 CPUs, 1 GPU) runs, and T (LS,
// 30 CPUs, no GPU) until 15; P (BE, 50 CPUs, 1 GPU, arrives 5) does not
// fit; N (BE, 20 CPUs, 1 GPU, arrives 10) does and starts at 10. N queued
// after P, so it is newer than P, but protected for 5m: P evicts it at 310.
func TestTimeBasedNewerIsPreempt(t *testing.T) {
	mk := func(name string, c trace.Class, arrival, runtime, cpu int64, gpus int32) trace.Job {
		j := tj(name, c, arrival, runtime, gpus, 1000)
		j.CPU = cpu
		if gpus == 0 {
			j.GPUMilli = 0
		}
		return j
	}
	jobs := []trace.Job{
		mk("H", trace.ClassLS, 0, 100000, 40, 1), mk("T", trace.ClassLS, 0, 15, 30, 0),
		mk("P", trace.ClassBE, 5, 100, 50, 1), mk("N", trace.ClassBE, 10, 100000, 20, 1),
	}
	s := testRun{policy: "timebased", jobs: jobs, nodes: testNodes(2), cfg: Config{Horizon: 2000}}.sim(t)
	r := s.m.result(s)
	if diff := cmp.Diff(report.Evictions{Total: 1, Preempt: 1, BE: 1}, r.Evictions); diff != "" || s.st[2].start != 310 {
		t.Errorf("P started %d (want 310); evictions (-want +got):\n%s", s.st[2].start, diff)
	}
	if diff := cmp.Diff(map[string]int{"newer": 1}, s.pol.picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
}

// With the newer rule off, only expiry remains: B evicts A once A has run
// longer than minAdmit (7210); A then waits until B in turn has run longer
// than minAdmit (7210 + 7200 → the first cycle after 14410: 14420).
func TestTimeBasedExpiryOnly(t *testing.T) {
	jobs := []trace.Job{
		tj("A", trace.ClassLS, 0, 100000, 1, 1000),
		tj("B", trace.ClassLS, 10, 100000, 1, 1000),
	}
	set := testSettings
	set.NoNewer = true
	s := testRun{policy: "timebased", set: set, jobs: jobs, nodes: testNodes(1), cfg: Config{Horizon: 15000}}.sim(t)
	if diff := cmp.Diff(map[string]int{"expired": 2}, s.pol.picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	if s.st[0].status != statusRunning || s.st[0].start != 14420 {
		t.Errorf("A: status %d start %d; want running since 14420", s.st[0].status, s.st[0].start)
	}
}

// A job whose first start fails (not ready before 400) and a healthy job of
// the same class behind it, on one GPU. Without backoff the failed job is
// retried at once at the head of the queue and fails again (300..600);
// with backoff it waits ~60s and queues behind the healthy job (its
// queue-order timestamp becomes the eviction time).
func TestBackoffFailedStarts(t *testing.T) {
	f := tj("F", trace.ClassLS, 0, 100, 1, 1000)
	f.ReadyAfter = 400
	jobs := []trace.Job{f, tj("G", trace.ClassLS, 5, 100, 1, 1000)}
	for _, tc := range []struct {
		policy string
		want   map[string]jobOutcome
		failed int
	}{
		{"minruntime", map[string]jobOutcome{"F": {Wait: 600, Done: 700}, "G": {Wait: 695, Done: 800}}, 2},
		{"backoff", map[string]jobOutcome{"F": {Wait: 400, Done: 500}, "G": {Wait: 295, Done: 400}}, 1},
	} {
		s := testRun{policy: tc.policy, jobs: jobs, nodes: testNodes(1)}.sim(t)
		if diff := cmp.Diff(tc.want, outcomes(s)); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.policy, diff)
		}
		r := s.m.result(s)
		if r.FailedStarts != tc.failed {
			t.Errorf("%s: failed starts %d, want %d", tc.policy, r.FailedStarts, tc.failed)
		}
		// A failed start's 300 s hold the GPU for nothing: wasted.
		if want := float64(300*tc.failed) / 1000; r.Utilisation.Wasted != want {
			t.Errorf("%s: wasted %v, want %v", tc.policy, r.Utilisation.Wasted, want)
		}
	}
}

// A gang starts only when all its tasks fit, and evicting it frees all of
// them. G (BE, 2 tasks × 1 GPU) spans two 1-GPU nodes; L (LS, 1 GPU)
// arriving at 10 evicts it whole; G restarts when L is done.
func TestGang(t *testing.T) {
	g := tj("G", trace.ClassBE, 0, 100, 1, 1000)
	g.Tasks, g.MinTasks = 2, 2
	jobs := []trace.Job{g, tj("L", trace.ClassLS, 10, 50, 1, 1000)}
	s := testRun{policy: "priority", jobs: jobs, nodes: testNodes(1, 1)}.sim(t)
	want := map[string]jobOutcome{"G": {Wait: 60, Done: 160, Evictions: 1}, "L": {Done: 60}}
	if diff := cmp.Diff(want, outcomes(s)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	// Lost: 10 s × 2 GPUs.
	if got, want := s.m.result(s).LostGPUHours, 20.0/3600; got != want {
		t.Errorf("lost %v GPU-h, want %v", got, want)
	}
}

// minruntime.Validator decides how many tasks an elastic victim
// may lose. E (BE, 4 tasks × 1 GPU, at least 2, 1000 s of work each: 4000
// task-seconds) fills a 4-GPU node from 0, protected for 5m.
//
//	t=10  L1 (LS, 1 GPU) takes one task: 3 ≥ 2 stay, the validator allows
//	      it; E keeps its 40 task-seconds and runs on 3 tasks.
//	t=20  L2 (LS, 2 GPUs) would take two more, leaving 1 < 2 of a protected
//	      job: refused until the protection ends at 300.
//	t=300 E is no longer protected: it is evicted whole (its minimum cannot
//	      be kept), and L2 starts.
func TestElasticScenarioValidator(t *testing.T) {
	e := tj("E", trace.ClassBE, 0, 1000, 1, 1000)
	e.Tasks, e.MinTasks = 4, 2
	jobs := []trace.Job{e, tj("L1", trace.ClassLS, 10, 1000, 1, 1000), tj("L2", trace.ClassLS, 20, 1000, 2, 1000)}
	s := testRun{policy: "minruntime", jobs: jobs, nodes: testNodes(4), cfg: Config{Horizon: 400}}.sim(t)
	r := s.m.result(s)
	if diff := cmp.Diff(report.Evictions{Total: 1, Reclaim: 1, BE: 1, Shrinks: 1}, r.Evictions); diff != "" || s.st[2].start != 300 {
		t.Errorf("L2 started %d (want 300); evictions (-want +got):\n%s", s.st[2].start, diff)
	}
	if s.m.scenarioNo == 0 || s.m.scenarioOK == 0 {
		t.Errorf("validator allowed %d, refused %d scenarios; want both > 0", s.m.scenarioOK, s.m.scenarioNo)
	}
	// E saved 40 task-seconds at the shrink; its 3-task stretch 10..300
	// (870 task-seconds, 870 GPU-seconds) is lost.
	if got := s.st[0].progress; got != 40 {
		t.Errorf("E progress %d, want 40", got)
	}
	if got, want := r.LostGPUHours, 870.0/3600; got != want {
		t.Errorf("lost %v GPU-h, want %v", got, want)
	}
	// Plain priority shrinks without asking anyone: L2 starts at 20.
	s = testRun{policy: "priority", jobs: jobs, nodes: testNodes(4), cfg: Config{Horizon: 400}}.sim(t)
	if s.st[2].start != 20 {
		t.Errorf("priority: L2 started %d, want 20", s.st[2].start)
	}
}

// Head-of-line reservation: W (Burstable, 2 GPUs, 10 s) needs the whole
// 2-GPU node, which a chain of LS jobs (100 s each, one every 50 s) never
// leaves empty. Without a reservation W waits for the chain's end (350).
// With one, W reserves the node once it has waited 20 s (at 30): L2
// arriving at 50 may not use it, the node drains when L1 ends at 100, and
// W starts then (the LS jobs left waiting then reserve in turn).
func TestReservation(t *testing.T) {
	jobs := []trace.Job{tj("W", trace.ClassBurstable, 10, 10, 2, 1000)}
	for i := range 6 {
		jobs = append(jobs, tj("L"+string(rune('1'+i)), trace.ClassLS, int64(50*i), 100, 1, 1000))
	}
	set := testSettings
	set.ReserveAfter = 20 * time.Second
	for _, tc := range []struct {
		policy string
		start  int64
	}{{"minruntime", 350}, {"reserve-naive", 100}} {
		s := testRun{policy: tc.policy, set: set, jobs: jobs, nodes: testNodes(2)}.sim(t)
		if s.st[0].start != tc.start {
			t.Errorf("%s: W started %d, want %d", tc.policy, s.st[0].start, tc.start)
		}
		if got := s.m.reservations > 0; got != (tc.policy == "reserve-naive") {
			t.Errorf("%s: %d reservations", tc.policy, s.m.reservations)
		}
	}
}

func TestApplicablePolicies(t *testing.T) {
	if diff := cmp.Diff([]string{"priority", "minruntime", "requeue", "timebased", "reserve-naive", "reserve"}, ApplicablePolicies(false)); diff != "" {
		t.Errorf("without failed starts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"priority", "minruntime", "requeue", "timebased", "reserve-naive", "reserve", "backoff"}, ApplicablePolicies(true)); diff != "" {
		t.Errorf("with failed starts (-want +got):\n%s", diff)
	}
}

// The preempt min-runtime decides evictions within a team queue, the
// reclaim one across queues. One 1-GPU node; A (BE, be-a) runs from 0.
//
//	H (BE, High, be-a) arrives at 10: a preempt (same queue, higher
//	  priority). With preempt be=1m it evicts A at 60; without a preempt
//	  setting A is held for be's 5m (both actions): at 300.
//	H2 (BE, High, be-b) instead: ranked apart from A (another team's job of
//	  its class), it never evicts A, whatever the settings.
//	L (LS, ls-a): a reclaim, held for be's 5m even with preempt be=1m.
func TestPreemptMinRuntime(t *testing.T) {
	high := func(name string, team int) trace.Job {
		j := inTeam(tj(name, trace.ClassBE, 10, 50, 1, 1000), team)
		j.High = true
		return j
	}
	a := tj("A", trace.ClassBE, 0, 1000, 1, 1000)
	withPreempt := testSettings
	withPreempt.PreemptMinRuntime = []QueueDuration{{Queue: "be", D: time.Minute}}
	for _, tc := range []struct {
		name  string
		set   Settings
		other trace.Job
		start int64 // the other job's start; 1000 when it waits for A
		cause report.Evictions
	}{
		{"preempt 1m", withPreempt, high("H", 0), 60, report.Evictions{Total: 1, Preempt: 1, BE: 1}},
		{"no preempt setting", testSettings, high("H", 0), 300, report.Evictions{Total: 1, Preempt: 1, BE: 1}},
		{"another team", withPreempt, high("H2", 1), 1000, report.Evictions{}},
		{"reclaim", withPreempt, tj("L", trace.ClassLS, 10, 50, 1, 1000), 300, report.Evictions{Total: 1, Reclaim: 1, BE: 1}},
	} {
		for _, policy := range []string{"minruntime", "requeue"} {
			s := testRun{policy: policy, set: tc.set, teams: 2, jobs: []trace.Job{a, tc.other}, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
			r := s.m.result(s)
			if s.st[1].start != tc.start || r.Evictions != tc.cause {
				t.Errorf("%s, %s: %s started %d (want %d), evictions %+v (want %+v)", tc.name, policy, tc.other.Name, s.st[1].start, tc.start, r.Evictions, tc.cause)
			}
		}
	}
}

// -min-runtime sets both actions of a queue, -preempt-min-runtime the
// preempt one, overriding; a queue named only there inherits its reclaim
// min-runtime (nil).
func TestMinRuntimeSettings(t *testing.T) {
	set := Settings{
		MinRuntime:        []QueueDuration{{Queue: "be", D: 5 * time.Minute}, {Queue: "ls", D: 30 * time.Minute}},
		PreemptMinRuntime: []QueueDuration{{Queue: "be", D: time.Minute}, {Queue: "ls-a", D: 0}},
	}
	type qs struct {
		Queue            string
		Preempt, Reclaim string
	}
	var got []qs
	for _, q := range minRuntimeSettings(set) {
		e := qs{Queue: q.Queue, Preempt: "inherit", Reclaim: "inherit"}
		if q.Preempt != nil {
			e.Preempt = q.Preempt.String()
		}
		if q.Reclaim != nil {
			e.Reclaim = q.Reclaim.String()
		}
		got = append(got, e)
	}
	want := []qs{{"be", "1m0s", "5m0s"}, {"ls", "30m0s", "30m0s"}, {"ls-a", "0s", "inherit"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The requeue engine's contenders follow preemption's ranking: a High job
// of another team queue is ranked apart from the victim's class-mates, so
// it may not take an over-running job's GPU even with equal-priority
// contenders; in the victim's own queue it outranks it, and preemption
// (after the 5m protection) gets there first.
func TestRequeueRankedApart(t *testing.T) {
	x := tj("X", trace.ClassBE, 0, 100000, 1, 1000)
	for _, tc := range []struct {
		team  int
		start int64
		cause report.Evictions
	}{{1, -1, report.Evictions{}}, {0, 4000, report.Evictions{Total: 1, Preempt: 1, BE: 1}}} {
		z := inTeam(tj("Z", trace.ClassBE, 4000, 100, 1, 1000), tc.team)
		z.High = true
		s := testRun{policy: "requeue", teams: 2, jobs: []trace.Job{x, z}, nodes: testNodes(1), cfg: Config{Horizon: 5000}}.sim(t)
		r := s.m.result(s)
		start := s.st[1].start
		if s.st[1].status == statusPending {
			start = -1
		}
		if start != tc.start || r.Evictions != tc.cause {
			t.Errorf("Z in team %d: start %d (want %d), evictions %+v (want %+v)", tc.team, start, tc.start, r.Evictions, tc.cause)
		}
	}
}

// A whole-node job needs two victims: X and Y (BE, 4 GPUs each, past their
// 1h expected runtime) fill the one 8-GPU node when W (BE, 8 GPUs) arrives
// at 4000. No single eviction makes room; the engine evicts both as one
// set for W, and W starts once, at 4000.
func TestRequeueSetForWholeNodeJob(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 100000, 4, 1000),
		tj("Y", trace.ClassBE, 0, 100000, 4, 1000),
		tj("W", trace.ClassBE, 4000, 100, 8, 1000),
	}
	s := testRun{policy: "requeue", jobs: jobs, nodes: testNodes(8), cfg: Config{Horizon: 5000}}.sim(t)
	r := s.m.result(s)
	if diff := cmp.Diff(report.Evictions{Total: 2, Requeue: 2, BE: 2}, r.Evictions); diff != "" {
		t.Errorf("evictions (-want +got):\n%s", diff)
	}
	if s.st[2].start != 4000 || s.st[2].status != statusDone {
		t.Errorf("W started %d, status %d; want 4000, done", s.st[2].start, s.st[2].status)
	}
	if got := s.pol.rq.outcomes["committed"]; got != 2 {
		t.Errorf("committed = %d, want 2", got)
	}
}

// The engine's cost rule sees the simulator's checkpoints. X (started 0,
// on n0) and Y (started 100, on n1) hold 4 GPUs each; Z (BE, 4 GPUs)
// arrives at 4000 and either eviction makes room. Without checkpoints X
// would lose 4×4000 GPU-s and Y 4×3900: Y goes. With a checkpoint every
// 1000 s of work, X checkpointed at 4000 (loses 0) and Y at 3100 (loses
// 4×900): X goes. (The run stops at 4005, before the next cycle, where
// the evicted job, an equal-priority contender, would take the other's
// place.)
func TestRequeueCheckpointCost(t *testing.T) {
	jobs := []trace.Job{
		tj("X", trace.ClassBE, 0, 100000, 4, 1000),
		tj("Y", trace.ClassBE, 100, 100000, 4, 1000),
		tj("Z", trace.ClassBE, 4000, 100, 4, 1000),
	}
	for _, tc := range []struct {
		checkpoint int64
		evicted    int
	}{{0, 1}, {1000, 0}} {
		s := testRun{policy: "requeue", jobs: jobs, nodes: testNodes(4, 4), cfg: Config{Horizon: 4005, Checkpoint: tc.checkpoint}}.sim(t)
		for i := range 2 {
			want := int32(0)
			if i == tc.evicted {
				want = 1
			}
			if got := s.st[i].evictions; got != want {
				t.Errorf("checkpoint %d: %s evictions %d, want %d", tc.checkpoint, jobs[i].Name, got, want)
			}
		}
		if s.st[2].start != 4000 {
			t.Errorf("checkpoint %d: Z started %d, want 4000", tc.checkpoint, s.st[2].start)
		}
	}
}

// The plain model, the requeue pass's model under NoModelHints, offers the
// engine none of its optional interfaces: the pass without hints runs the
// engine on Evict and Place alone.
func TestPlainRequeueModelHasNoHints(t *testing.T) {
	var m requeue.Model = &simModel{}
	if _, ok := m.(requeue.Shaper); ok {
		t.Error("simModel implements requeue.Shaper")
	}
	if _, ok := m.(requeue.FitBounder); ok {
		t.Error("simModel implements requeue.FitBounder")
	}
	if _, ok := m.(requeue.Transactional); ok {
		t.Error("simModel implements requeue.Transactional")
	}
}
