package eligibility

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// ScenarioTask is one victim task of an eviction scenario.
type ScenarioTask struct {
	// Subgroup names the task's subgroup in its job's [Job.Subgroups].
	Subgroup string
	// Active reports whether the task is still allocated. A task that is
	// already releasing (evicted by an earlier decision) is listed with
	// Active false: it is no longer counted in the subgroup's Active, so it
	// is not counted again as an eviction.
	Active bool
}

// ScenarioJob is one victim job of an eviction scenario together with the
// tasks the scenario takes from it.
type ScenarioJob struct {
	// Job is the victim as it is now, before the scenario; its
	// Subgroups[i].Active counts the tasks currently allocated.
	Job *Job
	// Tasks are the job's tasks the scenario evicts.
	Tasks []ScenarioTask
}

// ScenarioDecision is the [ScenarioValidator]'s answer about a whole
// scenario. When the scenario is rejected it names the first violation (in
// the order the victims were given, then subgroup order).
type ScenarioDecision struct {
	// Decision holds Allowed, Reason (ReasonMinAvailableKept or
	// ReasonBelowMinAvailable) and Until. For a rejection Until is the instant the last violating
	// job's protection expires: from then on, absent other changes, the same
	// scenario is accepted. An accepted scenario has the zero Until (it stays
	// accepted as time passes).
	Decision
	// Job is the ID of the first violating job ("" when allowed).
	Job string
	// Subgroup is the violating subgroup's name.
	Subgroup string
	// Remaining is Active - evicted for that subgroup after the scenario.
	Remaining int32
	// MinAvailable is that subgroup's minimum.
	MinAvailable int32
	// ProtectedUntil is when the named job's protection expires.
	ProtectedUntil time.Time
	// Resolution is the min-runtime that protected the named job.
	Resolution runtime.Resolution
	// Violations counts the (job, subgroup) pairs that would fall below
	// their minimum.
	Violations int
}

// String describes the decision in one line; it allocates.
func (s ScenarioDecision) String() string {
	if s.Allowed {
		return "scenario allowed (" + s.Reason.String() + ")"
	}
	return fmt.Sprintf("scenario rejected (%s): job %q subgroup %q would keep %d of min %d tasks while protected until %s by %s; %d violation(s)",
		s.Reason, s.Job, s.Subgroup, s.Remaining, s.MinAvailable,
		s.ProtectedUntil.UTC().Format(time.RFC3339), s.Resolution, s.Violations)
}

// UnknownSubgroupError reports a scenario task naming a subgroup its job does
// not have. [ScenarioValidator.Validate] returns it (as a value, never a
// panic); use errors.As to inspect it.
type UnknownSubgroupError struct {
	Job      string // the job's ID
	Subgroup string // the unknown subgroup name
}

// Error implements error.
func (e UnknownSubgroupError) Error() string {
	return fmt.Sprintf("eligibility: scenario task of job %q names unknown subgroup %q", e.Job, e.Subgroup)
}

// ScenarioValidator is the elastic MinAvailable scenario filter (seed 001's
// preempt/reclaimScenarioValidatorFn, seed 002's ElasticMinRuntimeFilter).
// The per-pair [MinRuntimeFilter] lets elastic victims through; the
// validator then looks at a whole scenario and rejects it when a victim job
// that is elastic AND still protected (under the min-runtime resolved for the
// preemptor's queue and the action) would be left with active - evicted <
// MinAvailable in a subgroup the scenario takes tasks from. Unprotected
// elastic jobs, and jobs that are not elastic, may lose every task.
//
// It is built for the accumulated-scenario pattern: a scheduler's scenario
// builder calls it again each time it adds victims. The validator keeps its
// scratch space between calls, so after the first calls have sized it a call
// allocates nothing. For the same reason a ScenarioValidator is NOT safe for
// concurrent use: use one per goroutine (the zero value is ready; set
// Resolver).
type ScenarioValidator struct {
	// Resolver resolves the victims' min-runtime; nil means every duration
	// is zero, so every scenario is allowed.
	Resolver *runtime.Resolver

	jobs   map[string]int32 // job ID -> index into groups (scratch)
	groups []scenarioGroup  // distinct victim jobs in first-seen order (scratch)
	counts []int32          // evicted active tasks per subgroup (scratch)
}

type scenarioGroup struct {
	job *Job
	off int32 // offset of the job's subgroups in counts
}

// Validate checks the scenario in which a preemptor in queue preemptor
// evicts the victims' listed tasks by action at now.
//
// Victims are grouped by job and subgroup: entries with the same Job.ID are
// summed (so the recorded and the potential victims of an accumulated
// scenario may simply be listed one after the other); the first entry's Job
// describes the job. Only Active tasks count as evictions. For each distinct
// victim job that is elastic ([Job.IsElastic], judged on its state before the
// scenario) and protected ([runtime.Protected] under
// Resolver.Resolve(action, preemptor, job.Queue); a missing start means not
// protected, a future start means protected), every subgroup with at least
// one evicted task must keep Active - evicted >= MinAvailable.
//
// A task naming a subgroup its job lacks makes Validate return an
// [UnknownSubgroupError] (the first one found) and a zero decision; a
// victim entry with a nil Job is skipped. Cost: O(tasks × subgroups per
// job) plus one resolver query per elastic victim job; no allocation once
// the scratch has grown to the scenario's size.
func (v *ScenarioValidator) Validate(action runtime.Action, preemptor queuetree.ID, victims []ScenarioJob, now time.Time) (ScenarioDecision, error) {
	if v.jobs == nil {
		v.jobs = make(map[string]int32, len(victims))
	} else {
		clear(v.jobs)
	}
	v.groups = v.groups[:0]
	v.counts = v.counts[:0]
	for i := range victims {
		vj := &victims[i]
		j := vj.Job
		if j == nil {
			continue
		}
		gi, ok := v.jobs[j.ID]
		if !ok {
			gi = int32(len(v.groups))
			v.jobs[j.ID] = gi
			v.groups = append(v.groups, scenarioGroup{job: j, off: int32(len(v.counts))})
			for range j.Subgroups {
				v.counts = append(v.counts, 0)
			}
		}
		g := v.groups[gi]
		lastName, lastK := "", -1 // tasks usually come grouped by subgroup
		for t := range vj.Tasks {
			task := &vj.Tasks[t]
			k := lastK
			if k < 0 || task.Subgroup != lastName {
				k = g.job.SubgroupIndex(task.Subgroup)
				if k < 0 {
					return ScenarioDecision{}, UnknownSubgroupError{Job: j.ID, Subgroup: task.Subgroup}
				}
				lastName, lastK = task.Subgroup, k
			}
			if task.Active {
				v.counts[int(g.off)+k]++
			}
		}
	}

	out := ScenarioDecision{Decision: Decision{Allowed: true, Reason: ReasonMinAvailableKept}}
	for _, g := range v.groups {
		j := g.job
		if !j.IsElastic() {
			continue
		}
		res := v.Resolver.Resolve(action, preemptor, j.Queue)
		if !runtime.Protected(j.Start, res.Duration, now) {
			continue
		}
		until := runtime.ProtectedUntil(j.Start, res.Duration)
		violated := false
		for k := range j.Subgroups {
			evicted := v.counts[int(g.off)+k]
			if evicted == 0 {
				continue
			}
			sg := &j.Subgroups[k]
			remaining := sg.Active - evicted
			if remaining >= sg.MinAvailable {
				continue
			}
			out.Violations++
			violated = true
			if out.Allowed {
				out.Allowed = false
				out.Reason = ReasonBelowMinAvailable
				out.Resolution = res
				out.Job = j.ID
				out.Subgroup = sg.Name
				out.Remaining = remaining
				out.MinAvailable = sg.MinAvailable
				out.ProtectedUntil = until
			}
		}
		if violated && until.After(out.Until) {
			out.Until = until
		}
	}
	return out, nil
}
