package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenurepolicy/tenure/eligibility"
)

// policyTestSettings: min-runtime on the class queues, expected runtime 1h
// for BE, cooldown 30m, minAdmit 2h.
var policyTestSettings = settings{
	MinRuntime:   []queueDuration{{"be", 5 * time.Minute}, {"burstable", 15 * time.Minute}, {"ls", 30 * time.Minute}},
	Expected:     []queueDuration{{"be", time.Hour}},
	RequeueDelay: 30 * time.Minute,
	MinAdmit:     2 * time.Hour,
}

// simulatePolicy runs the named policy over jobs on nodes: one team per
// class, a 10 s cycle grid, window [0, 1000], stopping at horizon.
func simulatePolicy(t *testing.T, name string, jobs []Job, nodes []Node, horizon int64) *sim {
	t.Helper()
	return simulateWith(t, name, policyTestSettings, jobs, nodes, horizon)
}

func simulateWith(t *testing.T, name string, set settings, jobs []Job, nodes []Node, horizon int64) *sim {
	t.Helper()
	e, err := newEnv(jobs, 1, set)
	if err != nil {
		t.Fatal(err)
	}
	w := &workload{jobs: jobs, nodes: nodes, env: e, seed: 1,
		cfg: Config{Interval: 10, Horizon: horizon, WindowStart: 0, WindowEnd: 1000, Buckets: 4}}
	pol, err := newPolicy(name, w)
	if err != nil {
		t.Fatal(err)
	}
	s := newSim(w.cfg, jobs, nodes, pol, e)
	s.m.leaf = e.leafIndex
	s.run()
	return s
}

// A BE job started at 0 is protected for 5 minutes: the LS job arriving at
// 10 evicts it at exactly 300 (start + min-runtime, a cycle the filter's
// Until asked for), not at 10 as plain priority does.
func TestMinRuntimeDelaysEviction(t *testing.T) {
	jobs := []Job{
		tj("A", ClassBE, 0, 1000, 1, 1000),
		tj("B", ClassLS, 10, 50, 1, 1000),
	}
	for _, tc := range []struct {
		policy string
		want   map[string]jobOutcome
		thrash int
	}{
		{"priority", map[string]jobOutcome{"A": {Wait: 60, Done: 1060, Evictions: 1}, "B": {Wait: 0, Done: 60}}, 1},
		{"minruntime", map[string]jobOutcome{"A": {Wait: 350, Done: 1350, Evictions: 1}, "B": {Wait: 290, Done: 350}}, 0},
	} {
		s := simulatePolicy(t, tc.policy, jobs, testNodes(1), 1<<30)
		if diff := cmp.Diff(tc.want, outcomes(s)); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.policy, diff)
		}
		if r := s.m.result(tc.policy); r.Thrash != tc.thrash {
			t.Errorf("%s: thrash = %d, want %d", tc.policy, r.Thrash, tc.thrash)
		}
	}
}

// Two BE jobs fill a 2-GPU node; X (started at 0) has overrun its 1h
// expected runtime when an LS job arrives at 4000, Y (started 3000) has not.
// Plain preemption evicts the youngest (Y); the requeue engine evicts the
// nominated over-runner X and writes its not-before annotation.
func TestRequeueEvictsOverrunner(t *testing.T) {
	jobs := []Job{
		tj("X", ClassBE, 0, 100000, 1, 1000),
		tj("Y", ClassBE, 3000, 100000, 1, 1000),
		tj("Z", ClassLS, 4000, 100, 1, 1000),
	}
	for _, tc := range []struct {
		policy       string
		wantX, wantY int32
	}{
		{"minruntime", 0, 1},
		{"requeue", 1, 0},
	} {
		s := simulatePolicy(t, tc.policy, jobs, testNodes(2), 5000)
		got := outcomes(s)
		if got["X"].Evictions != tc.wantX || got["Y"].Evictions != tc.wantY || s.st[2].start != 4000 {
			t.Errorf("%s: evictions X=%d Y=%d, Z started %d; want X=%d Y=%d, Z at 4000",
				tc.policy, got["X"].Evictions, got["Y"].Evictions, s.st[2].start, tc.wantX, tc.wantY)
		}
		if tc.policy != "requeue" {
			continue
		}
		p := s.pol.(*tenurePolicy)
		if got, want := p.ej[0].Annotations[eligibility.AnnotationRequeueNotBefore], "2023-01-01T01:36:40Z"; got != want {
			t.Errorf("X not-before = %q, want %q (4000 s + 30m)", got, want)
		}
		if got := s.m.requeue["committed"]; got != 1 {
			t.Errorf("committed = %d, want 1", got)
		}
	}
}

// Time-based preemption rotates two equal-priority LS jobs that cannot run
// together. B (created 10) evicts A once A has held the GPU longer than
// minAdmit (2h: the first cycle after 7200 is 7210). A is re-stamped with
// its preemption instant (requeue.QueueEntry.SamePriorityPreempted), so B is
// not "newer" than A: A waits until B in turn has held the GPU longer than
// 2h (7210 + 7210 = 14420), and so on: 21630, 28840. Every pick is an
// expired one; without the re-stamp A would take the GPU straight back as
// soon as min-runtime allowed ("newer"), and neither job would progress.
func TestTimeBasedRotation(t *testing.T) {
	jobs := []Job{
		tj("A", ClassLS, 0, 100000, 1, 1000),
		tj("B", ClassLS, 10, 100000, 1, 1000),
	}
	s := simulatePolicy(t, "timebased", jobs, testNodes(1), 30000)
	r := s.m.result("timebased")
	if r.Evictions != 4 || r.Completed != 0 || r.Unfinished != 2 {
		t.Errorf("evictions %d, completed %d, unfinished %d; want 4, 0, 2", r.Evictions, r.Completed, r.Unfinished)
	}
	if diff := cmp.Diff(map[string]int{"expired": 4}, s.m.picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	if s.st[0].status != statusRunning || s.st[0].start != 28840 || s.st[1].start != 21630 {
		t.Errorf("A: status %d start %d, B last start %d; want A running since 28840, B last started 21630",
			s.st[0].status, s.st[0].start, s.st[1].start)
	}
	// minruntime never lets equal priorities preempt: B waits for A.
	s = simulatePolicy(t, "minruntime", jobs, testNodes(1), 1<<30)
	if got := outcomes(s)["B"]; got.Wait != 99990 {
		t.Errorf("minruntime: B wait %d, want 99990", got.Wait)
	}
}

// A job whose first start fails (not ready before 400) and a healthy job of
// the same class behind it, on one GPU. Without backoff the failed job is
// retried at once at the head of the queue and fails again (300..600);
// with backoff it waits ~60s and queues behind the healthy job (its
// queue-order timestamp becomes the eviction time).
func TestBackoffFailedStarts(t *testing.T) {
	f := tj("F", ClassLS, 0, 100, 1, 1000)
	f.ReadyAfter = 400
	jobs := []Job{f, tj("G", ClassLS, 5, 100, 1, 1000)}
	for _, tc := range []struct {
		policy string
		want   map[string]jobOutcome
		failed int
	}{
		{"minruntime", map[string]jobOutcome{"F": {Wait: 600, Done: 700}, "G": {Wait: 695, Done: 800}}, 2},
		{"backoff", map[string]jobOutcome{"F": {Wait: 400, Done: 500}, "G": {Wait: 295, Done: 400}}, 1},
	} {
		s := simulatePolicy(t, tc.policy, jobs, testNodes(1), 1<<30)
		if diff := cmp.Diff(tc.want, outcomes(s)); diff != "" {
			t.Errorf("%s: outcomes (-want +got):\n%s", tc.policy, diff)
		}
		if got := s.m.failedStarts; got != tc.failed {
			t.Errorf("%s: failed starts %d, want %d", tc.policy, got, tc.failed)
		}
	}
}

func TestApplicablePolicies(t *testing.T) {
	if diff := cmp.Diff([]string{"priority", "minruntime", "requeue", "timebased"}, applicablePolicies(false)); diff != "" {
		t.Errorf("without failed starts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"priority", "minruntime", "requeue", "timebased", "backoff"}, applicablePolicies(true)); diff != "" {
		t.Errorf("with failed starts (-want +got):\n%s", diff)
	}
}

// With the newer rule off, only expiry remains: B evicts A once A has run
// longer than minAdmit (7210); A then waits until B in turn has run longer
// than minAdmit (7210 + 7200 → the first cycle after 14410: 14420).
func TestTimeBasedExpiryOnly(t *testing.T) {
	jobs := []Job{
		tj("A", ClassLS, 0, 100000, 1, 1000),
		tj("B", ClassLS, 10, 100000, 1, 1000),
	}
	set := policyTestSettings
	set.NoNewer = true
	s := simulateWith(t, "timebased", set, jobs, testNodes(1), 15000)
	if diff := cmp.Diff(map[string]int{"expired": 2}, s.m.picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	if s.st[0].status != statusRunning || s.st[0].start != 14420 {
		t.Errorf("A: status %d start %d; want running since 14420", s.st[0].status, s.st[0].start)
	}
}
