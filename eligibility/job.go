package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Job is a running (or recently running) job as tenure's eligibility
// decisions see it: a plain value holding only the fields a decision reads.
// The embedder fills it from its own object (a PodGroup, a Workload) once per
// scheduling cycle; the Job example shows a conversion.
//
// The zero Job is valid input: it is not running, not preemptible, sits in
// queuetree.Root (which resolves to the default min-runtimes), has no start
// time and no subgroups, and every decision about it returns a reason rather
// than panicking.
//
// Decisions never modify a Job and never retain a pointer to it.
type Job struct {
	// ID identifies the job in decisions, logs and metrics (for example
	// "namespace/name"). tenure never parses it.
	ID string
	// Queue is the job's leaf queue in the resolver's tree. An invalid ID
	// (such as queuetree.None) resolves to the default durations.
	Queue queuetree.ID
	// Priority is the job's scheduling priority; larger is more important.
	// The requeue engine orders nominations by it.
	Priority int32
	// Preemptible reports whether the scheduler may evict the job at all.
	Preemptible bool
	// Running reports whether the job has at least one active allocated
	// task (KAI: GetActiveAllocatedTasksCount() > 0). The nominator skips a
	// job that is not running with ReasonNotRunning.
	Running bool
	// Start is the job's last start: the instant it went from zero to a
	// positive number of allocated tasks. Elastic growth and shrink do not
	// reset it. The zero time means "unknown".
	Start time.Time
	// Subgroups lists the job's task groups with their minimums and current
	// active counts. A job without subgroups of its own (a plain gang) is
	// described by one Subgroup, conventionally named "".
	Subgroups []Subgroup
	// Annotations are the job's annotations (read-only here); the
	// expected-runtime nominator reads the keys in its [AnnotationKeys].
	Annotations map[string]string
}

// Subgroup is one task group of a [Job]: its name, the minimum number of
// tasks it needs to stay useful, and how many of its tasks are active
// (allocated and not already releasing) right now.
type Subgroup struct {
	// Name identifies the subgroup within its job; scenario tasks refer to it.
	Name string
	// MinAvailable is the minimum number of active tasks the subgroup needs.
	MinAvailable int32
	// Active is the number of the subgroup's tasks currently allocated.
	Active int32
}

// Elastic reports whether the subgroup runs more tasks than its minimum, that
// is whether some of them can be taken away without breaking the gang.
func (s Subgroup) Elastic() bool { return s.MinAvailable < s.Active }

// IsElastic reports whether some subgroup of j has MinAvailable < Active
// (KAI-Scheduler's docs/plugins/minruntime.md: "MinAvailable < number of pods in a job"). Elastic victims are
// allowed by the per-pair [MinRuntimeFilter] and checked as a whole by the
// [ScenarioValidator]. Cost: O(len(j.Subgroups)), no allocation.
func (j *Job) IsElastic() bool {
	for i := range j.Subgroups {
		if j.Subgroups[i].MinAvailable < j.Subgroups[i].Active {
			return true
		}
	}
	return false
}

// ActiveTasks returns the sum of Active over j's subgroups.
func (j *Job) ActiveTasks() int64 {
	var n int64
	for i := range j.Subgroups {
		n += int64(j.Subgroups[i].Active)
	}
	return n
}

// SubgroupIndex returns the index in j.Subgroups of the subgroup named name,
// or -1. Cost: O(len(j.Subgroups)), no allocation.
func (j *Job) SubgroupIndex(name string) int {
	for i := range j.Subgroups {
		if j.Subgroups[i].Name == name {
			return i
		}
	}
	return -1
}
