package runtime

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// Resolution is the min-runtime that applies to one eviction, and why.
type Resolution struct {
	// Duration is the min-runtime: the victim is protected while
	// now < start+Duration (see [ProtectedUntil]); 0: instantly evictable.
	Duration time.Duration
	// Source is the queue whose explicit setting applied, or
	// queuetree.None when the node-pool default applied.
	Source queuetree.ID
	// SourceName is Source's name, "" for the default.
	SourceName string
	// Action is the kind of eviction resolved.
	Action Action
	// Method is how the walk started: the configured Method for a reclaim;
	// always MethodQueue for a preemption (which walks from the victim's
	// queue).
	Method Method
}

// String explains r in one line, for logs and decision reasons, such as
// "reclaim min-runtime 10m from queue B (lca)" or
// "preempt min-runtime 0s from default (queue)". A Resolution without a
// SourceName (queue names are never empty), the zero value included, reads
// "from default". It allocates.
func (r Resolution) String() string {
	from := "default"
	if r.SourceName != "" {
		from = "queue " + r.SourceName
	}
	return fmt.Sprintf("%v min-runtime %s from %s (%v)", r.Action, FormatDuration(r.Duration), from, r.Method)
}
