package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Job is a running job as the deciders see it, filled by the embedder from
// its own object (a PodGroup, a Workload) once per cycle. The zero Job is
// valid input: not running, not preemptible, no queue (the min-runtime
// decisions deny it, fail closed), no start. Decisions never modify a Job
// nor keep a pointer to it.
type Job struct {
	// ID names the job in decisions, logs and metrics; never parsed.
	ID string
	// Queue is the job's leaf queue; unset (queuetree.None) or unknown, the
	// min-runtime decisions deny unless FailOpen.
	Queue queuetree.ID
	// Priority: larger is more important.
	Priority int32
	// Preemptible reports whether the scheduler may evict the job at all.
	Preemptible bool
	// Running reports whether the job has an active allocated task.
	Running bool
	// Start is the last start (0 to >0 allocated tasks; elastic growth
	// does not reset it); zero: unknown.
	Start time.Time
	// Resources is how much the job holds (GPUs, say); 0: unknown. The
	// requeue engine weighs the work an eviction loses by it.
	Resources float64
	// Subgroups are the job's task groups; a plain gang is one Subgroup.
	Subgroups []Subgroup
	// SubgroupsFunc, used when Subgroups is nil, supplies them on demand:
	// called only for a victim still protected, at most once per check or
	// scenario job. It must return the same subgroups for the whole cycle.
	SubgroupsFunc func() []Subgroup
	// Annotations are read, never written.
	Annotations map[string]string
}

// Subgroup is one task group of a [Job].
type Subgroup struct {
	// Name identifies the subgroup within its job.
	Name string
	// MinAvailable is the minimum number of active tasks it needs.
	MinAvailable int32
	// Active is the number of its tasks allocated and not releasing.
	Active int32
}
