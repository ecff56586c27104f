package sim

import (
	"slices"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/requeue"
)

// The two guards against eviction churn, both tenure.Policy settings
// decided through the Cycle:
//
//   - the preemptor-side delay (-preemptor-delay, Cycle.CheckPreemptor): a
//     pending job whose queue-order timestamp is less than the delay ago
//     does not look for victims; the requeue engine applies the same rule
//     to its contenders (Contender.Queued);
//   - the eviction budget (-eviction-budget N/W, Cycle.CheckEvictionBudget):
//     a job evicted N times within the last W is no candidate victim until
//     the oldest of those evictions is W old. Each eviction the scheduler
//     chooses (preempt, reclaim, time-based, requeue) is recorded in the
//     job's eviction-record annotation (Cycle.RecordEviction; the requeue
//     engine's RequeueResult.EvictionRecords); failed starts and shrinks
//     are not evictions it chooses and are not recorded.
//
// What the report counts (report.Guards): the jobs whose victim search a
// delay put off (once per stint in the queue) and, for those that then
// started, the time from the first put-off to the end of the delay or
// their start, whichever came first (the longest the delay can have held
// them back); and the budget's holds: how many times a job's exhausted
// budget denied an eviction, counted once per job and window (a denial
// with the same Until as the job's last is the same hold).

// guards is a run's bookkeeping for the two settings.
type guards struct {
	delay, budget bool
	// ann is the one annotation map the budget check reads (the victim's
	// record under the budget's key), reused.
	ann map[string]string
	key string

	// jobs holds each job's guard state, allocated only when a guard is
	// set (most runs set none, and a million jobs would pay 48 bytes each).
	jobs []guardJob

	delayedJobs int
	delayHeld   int64 // seconds
	holds       int
}

// guardJob is one job's guard state: evRecord is its eviction-record
// annotation (-eviction-budget), holdUntil the Until of its budget's last
// denial; delayed says the preemptor delay put its victim search off in
// this stint in the queue, first at delayedAt, until delayedUntil.
type guardJob struct {
	evRecord                string
	holdUntil               int64
	delayed                 bool
	delayedAt, delayedUntil int64
}

func (g *guards) init(s *sim) {
	set := s.env.settings
	g.delay = set.PreemptorDelay > 0
	g.budget = set.BudgetMax > 0
	if g.budget {
		g.key = evictionbudget.Annotation // the default Key
		g.ann = map[string]string{}
	}
	if g.delay || g.budget {
		g.jobs = make([]guardJob, len(s.jobs))
	}
}

// evRecord returns job id's eviction-record annotation ("" without a
// budget).
func (g *guards) evRecord(id int32) string {
	if g.jobs == nil {
		return ""
	}
	return g.jobs[id].evRecord
}

// mayCauseEvictions reports whether pending job p may look for victims now
// (the preemptor delay); when not, it asks for a cycle when the delay ends.
func (s *sim) mayCauseEvictions(p int32) bool {
	g := &s.guards
	if !g.delay {
		return true
	}
	d := s.pol.cyc.CheckPreemptor(&requeue.Contender{Queued: at(s.st[p].queueTS)})
	if d.Allowed {
		return true
	}
	st := &g.jobs[p]
	if !st.delayed {
		st.delayed, st.delayedAt, st.delayedUntil = true, s.now, secCeil(d.Until)
		g.delayedJobs++
	}
	s.wakeAt(secCeil(d.Until))
	return false
}

// startedAfterDelay adds what the delay may have held job id back, when it
// starts.
func (s *sim) startedAfterDelay(id int32) {
	if s.guards.jobs == nil {
		return
	}
	st := &s.guards.jobs[id]
	if st.delayed {
		s.guards.delayHeld += min(s.now, st.delayedUntil) - st.delayedAt
		st.delayed = false
	}
}

// budgetAllows reports whether running job v's eviction budget allows
// another eviction now, and when not, the instant it will.
func (s *sim) budgetAllows(v int32) (bool, int64) {
	g := &s.guards
	if !g.budget {
		return true, 0
	}
	ej := s.ejob(v)
	g.ann[g.key] = g.jobs[v].evRecord
	ej.Annotations = g.ann
	d := s.pol.cyc.CheckEvictionBudget(ej)
	ej.Annotations = nil
	if d.Allowed {
		return true, 0
	}
	u := secCeil(d.Until)
	s.budgetHold(v, u)
	return false, u
}

// budgetHold counts a denial by job v's budget, once per window (Until).
func (s *sim) budgetHold(v int32, until int64) {
	if st := &s.guards.jobs[v]; st.holdUntil != until {
		st.holdUntil = until
		s.guards.holds++
	}
}

// recordEviction writes the eviction of job v now into its eviction
// record (a preemption; the requeue pass writes the engine's).
func (s *sim) recordEviction(v int32) {
	g := &s.guards
	if !g.budget {
		return
	}
	ej := s.ejob(v)
	g.ann[g.key] = g.jobs[v].evRecord
	ej.Annotations = g.ann
	_, g.jobs[v].evRecord = s.pol.cyc.RecordEviction(ej)
	ej.Annotations = nil
}

// guardsResult is the report's view of the guards (report.Guards).
func guardsResult(s *sim) report.Guards {
	var per []int64
	for i := range s.st {
		if s.st[i].runs > 0 {
			per = append(per, int64(s.st[i].evictions))
		}
	}
	slices.Sort(per)
	g := report.Guards{EvictionsPerJobP99: percentile(per, 99), BudgetHolds: s.guards.holds,
		DelayedJobs: s.guards.delayedJobs, DelayHeldHours: float64(s.guards.delayHeld) / 3600}
	if len(per) > 0 {
		g.EvictionsPerJobMax = int(per[len(per)-1])
	}
	return g
}
