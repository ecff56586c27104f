package minruntime

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// Task is one victim task of an eviction scenario.
type Task struct {
	// ID optionally identifies the task; tasks of one job with the same
	// non-empty ID count once.
	ID string
	// Subgroup names the task's subgroup in its job.
	Subgroup string
	// Active: still allocated; only active tasks count as evictions.
	Active bool
}

// Victim is a victim job and the tasks a scenario takes from it.
type Victim struct {
	// Job is the victim before the scenario.
	Job *eligibility.Job
	// Tasks are the job's tasks the scenario evicts.
	Tasks []Task
}

// The validator's own reasons.
const (
	// reasonMinAvailableKept: every protected elastic victim keeps at
	// least MinAvailable active tasks in each subgroup.
	reasonMinAvailableKept eligibility.Reason = "min_available_kept"
	// ReasonBelowMinAvailable: a subgroup would fall below MinAvailable.
	ReasonBelowMinAvailable eligibility.Reason = "below_min_available"
	// ReasonInvalidCounts: negative counts, or more evictions than Active.
	ReasonInvalidCounts eligibility.Reason = "invalid_counts"
	// ReasonConflictingVictims: two entries of one job ID describe
	// different jobs, or a task ID is listed twice differently.
	ReasonConflictingVictims eligibility.Reason = "conflicting_victims"
	// ReasonDuplicateSubgroup: a subgroup name the scenario uses is
	// repeated in the job, so its tasks cannot be attributed.
	ReasonDuplicateSubgroup eligibility.Reason = "duplicate_subgroup"
)

// ScenarioDecision is the [Validator]'s answer about a scenario; a
// rejection names the first problem found.
type ScenarioDecision struct {
	// Decision: a rejection's Until is when the last violating job's
	// protection ends (the same scenario is accepted from then on); zero
	// when time alone resolves nothing (conflicts, fail-closed reasons).
	eligibility.Decision
	// Job, Subgroup and Task name the problem.
	Job      string
	Subgroup string
	Task     string
	// Remaining is Active − evicted for that subgroup, and MinAvailable
	// its minimum.
	Remaining    int64
	MinAvailable int32
	// ProtectedUntil is when the named job's protection ends, and
	// Resolution the min-runtime that protected it.
	ProtectedUntil time.Time
	Resolution     runtime.Resolution
	// Violations counts every problem found.
	Violations int
}

// String describes the decision in one line; it allocates.
func (s ScenarioDecision) String() string {
	switch {
	case s.Allowed:
		return "scenario allowed (" + s.Reason.String() + ")"
	case s.Reason == ReasonConflictingVictims && s.Task != "":
		return fmt.Sprintf("scenario rejected (%s): task %q of job %q is listed twice with different subgroups or states; %d violation(s)",
			s.Reason, s.Task, s.Job, s.Violations)
	case s.Reason == ReasonConflictingVictims:
		return fmt.Sprintf("scenario rejected (%s): two victim entries describe different jobs with ID %q; %d violation(s)",
			s.Reason, s.Job, s.Violations)
	case s.Reason == ReasonDuplicateSubgroup:
		return fmt.Sprintf("scenario rejected (%s): job %q has several subgroups named %q, so the tasks taken from it cannot be attributed, while protected until %s by %s; %d violation(s)",
			s.Reason, s.Job, s.Subgroup,
			s.ProtectedUntil.UTC().Format(time.RFC3339), s.Resolution, s.Violations)
	case s.Reason == ReasonQueueUnset || s.Reason == ReasonUnknownQueue:
		what := "is unset"
		if s.Reason == ReasonUnknownQueue {
			what = "is not in the resolver's tree"
		}
		return fmt.Sprintf("scenario rejected (%s): the queue of job %q (or, where it matters, the preemptor's) %s, so its protection cannot be known; %d violation(s)",
			s.Reason, s.Job, what, s.Violations)
	case s.Reason == eligibility.ReasonInvalidAction:
		return fmt.Sprintf("scenario rejected (%s): %v is neither preempt nor reclaim, so no victim's protection can be known; %d violation(s)",
			s.Reason, s.Resolution.Action, s.Violations)
	case s.Reason == ReasonNoResolver:
		return fmt.Sprintf("scenario rejected (%s): the validator has no Resolver, so the protection of job %q cannot be known; %d violation(s)",
			s.Reason, s.Job, s.Violations)
	case s.Reason == ReasonInvalidCounts:
		return fmt.Sprintf("scenario rejected (%s): job %q subgroup %q has invalid counts (min %d, %d left after the scenario) while protected until %s by %s; %d violation(s)",
			s.Reason, s.Job, s.Subgroup, s.MinAvailable, s.Remaining,
			s.ProtectedUntil.UTC().Format(time.RFC3339), s.Resolution, s.Violations)
	}
	return fmt.Sprintf("scenario rejected (%s): job %q subgroup %q would keep %d of min %d tasks while protected until %s by %s; %d violation(s)",
		s.Reason, s.Job, s.Subgroup, s.Remaining, s.MinAvailable,
		s.ProtectedUntil.UTC().Format(time.RFC3339), s.Resolution, s.Violations)
}

// Validator is the elastic scenario validator (KAI's preempt and reclaim
// scenario validators, the design's phase 4). It fails closed as the
// [Filter] does. It keeps scratch space, so a warm one allocates nothing
// and one must not be shared between goroutines. The zero value is ready;
// set Resolver.
type Validator struct {
	// Resolver resolves the victims' min-runtime.
	Resolver *runtime.Resolver
	// FailOpen: as [Filter].
	FailOpen bool

	jobs   map[string]int32    // job ID -> index into groups (scratch)
	tasks  map[taskKey]taskVal // identified tasks (scratch)
	groups []scenarioGroup     // distinct victim jobs in first-seen order (scratch)
	counts []int64             // evicted active tasks per subgroup (scratch)
}

type scenarioGroup struct {
	job     *eligibility.Job
	sgs     []eligibility.Subgroup // the job's subgroups, loaded once (subgroups) when load
	off     int32                  // offset of the job's subgroups in counts
	load    bool                   // the subgroups matter: protection unknown (problem) or protected
	problem eligibility.Reason     // why the protection cannot be known; "" when res is its min-runtime
	res     runtime.Resolution     // the min-runtime resolved for the job
}

// taskKey identifies a task by its job (group index) and ID.
type taskKey struct {
	group int32
	id    string
}

// taskVal is how a task was first listed.
type taskVal struct {
	subgroup int32
	active   bool
}

// Validate checks the scenario in which a preemptor in queue preemptor
// evicts the victims' listed active tasks by action at now. Entries of one
// job ID are summed when they describe the job alike, else rejected
// (ReasonConflictingVictims). Each elastic victim still protected (as the
// Filter judges it) must keep Active − evicted >= MinAvailable in every
// subgroup that loses a task. A task naming a subgroup its job lacks is an
// error. Cost: O(tasks × subgroups) plus one resolver query per job; no
// allocation once warm.
func (v *Validator) Validate(action runtime.Action, preemptor queuetree.ID, victims []Victim, now time.Time) (ScenarioDecision, error) {
	out := ScenarioDecision{Decision: eligibility.Decision{Allowed: true, Reason: reasonMinAvailableKept}}
	if !validAction(action) {
		out.reject(eligibility.ReasonInvalidAction, "", runtime.Resolution{Source: queuetree.None, Action: action, Method: v.Resolver.Method()})
		return out, nil
	}
	v.reset(len(victims))
	for i := range victims {
		if err := v.count(action, preemptor, &victims[i], now, &out); err != nil {
			return ScenarioDecision{}, err
		}
	}
	stuck := !out.Allowed // time alone will not change the answer
	for gi := range v.groups {
		if v.judge(&v.groups[gi], action, &out) {
			stuck = true
		}
	}
	if stuck {
		out.Until = time.Time{}
	}
	return out, nil
}

// count is Validate's first step for one victim entry: it finds (or adds)
// the entry's job group and counts the entry's evicted active tasks per
// subgroup, noting conflicts in out. A nil Job that evicts an active task
// is rejected with ReasonQueueUnset unless FailOpen is set. The tasks of a
// job that is not protected are not looked at: nothing limits them.
func (v *Validator) count(action runtime.Action, preemptor queuetree.ID, vj *Victim, now time.Time, out *ScenarioDecision) error {
	j := vj.Job
	if j == nil {
		if !v.FailOpen && anyActive(vj.Tasks) {
			out.reject(ReasonQueueUnset, "", runtime.Resolution{Source: queuetree.None, Action: action})
		}
		return nil
	}
	gi, ok := v.group(action, preemptor, j, now)
	if !ok {
		out.conflict(j.ID, "", "")
		return nil
	}
	g := &v.groups[gi]
	if !g.load {
		return nil
	}
	lastName, lastK := "", -1 // tasks usually come grouped by subgroup
	for t := range vj.Tasks {
		task := &vj.Tasks[t]
		k := lastK
		if k < 0 || task.Subgroup != lastName {
			k = subgroupIndex(g.sgs, task.Subgroup)
			if k < 0 {
				return fmt.Errorf("eligibility: scenario task of job %q names unknown subgroup %q", j.ID, task.Subgroup)
			}
			lastName, lastK = task.Subgroup, k
		}
		if task.ID != "" {
			key := taskKey{group: gi, id: task.ID}
			if first, seen := v.tasks[key]; seen {
				if first.subgroup != int32(k) || first.active != task.Active {
					out.conflict(j.ID, g.sgs[first.subgroup].Name, task.ID)
				}
				continue
			}
			v.tasks[key] = taskVal{subgroup: int32(k), active: task.Active}
		}
		if task.Active {
			v.counts[int(g.off)+k]++
		}
	}
	return nil
}

// judge is Validate's second step for one job group: an elastic job whose
// protection cannot be known (g.problem) and that loses an active task is
// rejected with that reason; an elastic, protected one is checked subgroup
// by subgroup. It reports whether it found a violation that time alone
// will not lift.
func (v *Validator) judge(g *scenarioGroup, action runtime.Action, out *ScenarioDecision) (stuck bool) {
	if !g.load || !elastic(g.sgs) {
		return false
	}
	counts := v.counts[g.off : int(g.off)+len(g.sgs)]
	if g.problem != "" {
		if !anyPositive(counts) {
			return false
		}
		out.reject(g.problem, g.job.ID, runtime.Resolution{Source: queuetree.None, Action: action})
		return true
	}
	until := runtime.ProtectedUntil(g.job.Start, g.res.Duration)
	violated := false
	mayRepeat := namesMayRepeat(g.sgs)
	for k, evicted := range counts {
		if evicted == 0 {
			continue
		}
		sg := &g.sgs[k]
		remaining := int64(sg.Active) - evicted
		reason := ReasonBelowMinAvailable
		switch {
		case mayRepeat && repeatsName(g.sgs[k+1:], sg.Name):
			// Tasks resolve to the first subgroup of a name (k); a
			// later one with the same name could be theirs.
			reason = ReasonDuplicateSubgroup
		case sg.Active < 0 || sg.MinAvailable < 0 || remaining < 0:
			reason = ReasonInvalidCounts
		case remaining >= int64(sg.MinAvailable):
			continue
		}
		violated = true
		if out.reject(reason, g.job.ID, g.res) {
			out.Subgroup, out.Remaining, out.MinAvailable, out.ProtectedUntil = sg.Name, remaining, sg.MinAvailable, until
		}
	}
	if violated && until.After(out.Until) {
		out.Until = until
	}
	return false
}

// reject counts one violation in s and, when s is still allowed, makes it
// the rejection named: reason, job and resolution. It reports whether it
// did, so that the caller may fill in the details.
func (s *ScenarioDecision) reject(reason eligibility.Reason, job string, res runtime.Resolution) bool {
	s.Violations++
	if !s.Allowed {
		return false
	}
	s.Allowed, s.Reason, s.Job, s.Resolution = false, reason, job, res
	return true
}

// conflict counts a conflicting entry in s; the first conflict names the
// rejection, over any other reason.
func (s *ScenarioDecision) conflict(job, subgroup, task string) {
	s.Violations++
	if s.Reason != ReasonConflictingVictims {
		s.Allowed, s.Reason = false, ReasonConflictingVictims
		s.Job, s.Subgroup, s.Task = job, subgroup, task
	}
}

// classify resolves j's protection for the scenario: the fail-closed
// reason when it cannot be known (unless FailOpen), else the resolution;
// load reports whether the job's subgroups matter (its protection is
// unknown, or it is protected at now), the only case in which they are
// loaded.
func (v *Validator) classify(action runtime.Action, preemptor queuetree.ID, j *eligibility.Job, now time.Time) (problem eligibility.Reason, res runtime.Resolution, load bool) {
	if !v.FailOpen {
		if problem = queueProblem(v.Resolver, action, preemptor, j.Queue); problem != "" {
			return problem, res, true
		}
	}
	res = v.Resolver.Resolve(action, preemptor, j.Queue)
	until := runtime.ProtectedUntil(j.Start, res.Duration)
	return "", res, !until.IsZero() && now.Before(until)
}

// anyActive reports whether some task is active.
func anyActive(tasks []Task) bool {
	for i := range tasks {
		if tasks[i].Active {
			return true
		}
	}
	return false
}

// anyPositive reports whether some count is positive.
func anyPositive(counts []int64) bool {
	for _, n := range counts {
		if n > 0 {
			return true
		}
	}
	return false
}

// reset empties the scratch space for a scenario of n entries.
func (v *Validator) reset(n int) {
	if v.jobs == nil {
		v.jobs = make(map[string]int32, n)
		v.tasks = make(map[taskKey]taskVal)
	} else {
		clear(v.jobs)
		if len(v.tasks) > 0 {
			clear(v.tasks)
		}
	}
	v.groups = v.groups[:0]
	v.counts = v.counts[:0]
}

// group returns the index of j's group, adding the group when j is a job
// not seen before, or false when j shares its ID (the empty ID included)
// with a different job already seen. Jobs of one ID with equal Queue and
// Start have the same protection; only when it matters (the group loaded
// its subgroups) are their subgroups compared too.
func (v *Validator) group(action runtime.Action, preemptor queuetree.ID, j *eligibility.Job, now time.Time) (int32, bool) {
	if gi, ok := v.jobs[j.ID]; ok {
		g := &v.groups[gi]
		if g.job == j {
			return gi, true
		}
		if g.job.Queue != j.Queue || !g.job.Start.Equal(j.Start) {
			return gi, false
		}
		return gi, !g.load || sameSubgroups(g.sgs, subgroups(j))
	}
	gi := int32(len(v.groups))
	v.jobs[j.ID] = gi
	g := scenarioGroup{job: j, off: int32(len(v.counts))}
	g.problem, g.res, g.load = v.classify(action, preemptor, j, now)
	if g.load {
		g.sgs = subgroups(j)
	}
	v.groups = append(v.groups, g)
	for range g.sgs {
		v.counts = append(v.counts, 0)
	}
	return gi, true
}

// sameSubgroups reports whether as and bs are equal.
func sameSubgroups(as, bs []eligibility.Subgroup) bool {
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if as[i] != bs[i] {
			return false
		}
	}
	return true
}

// namesMayRepeat is a cheap filter for repeated subgroup names: false means
// every name is distinct. It sorts the names into 64 buckets by length and
// last byte and reports whether two fall into one; repeated names always do,
// and so do distinct names that merely share a bucket, which repeatsName
// then tells apart. Cost: O(len(sgs)), with no string comparison.
func namesMayRepeat(sgs []eligibility.Subgroup) bool {
	if len(sgs) > 64 {
		return true
	}
	var seen uint64
	for i := range sgs {
		name := sgs[i].Name
		b := uint(len(name))
		if len(name) > 0 {
			b = b*7 + uint(name[len(name)-1])
		}
		bit := uint64(1) << (b & 63)
		if seen&bit != 0 {
			return true
		}
		seen |= bit
	}
	return false
}

// repeatsName reports whether a subgroup of sgs is named name.
func repeatsName(sgs []eligibility.Subgroup, name string) bool {
	for i := range sgs {
		if sgs[i].Name == name {
			return true
		}
	}
	return false
}
