package minruntime

import (
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// queueProblem is the fail-closed check shared by the min-runtime filter
// and the scenario validator: ReasonQueueUnset when the victim's queue is
// queuetree.None (the zero ID: never set), ReasonUnknownQueue when r's tree
// did not issue it, and the same for the preemptor's queue when the answer
// depends on it (a reclaim under MethodLCA); "" when both are usable.
// Root is a usable queue (it resolves to the node-pool defaults), since
// nothing sets it by accident. A nil or unbuilt r has no tree, so no
// protection can be known: ReasonNoResolver. O(1), no allocation.
func queueProblem(r *runtime.Resolver, action runtime.Action, preemptor, victim queuetree.ID) eligibility.Reason {
	t := r.Tree()
	if t == nil {
		return ReasonNoResolver
	}
	if reason := idProblem(t, victim); reason != "" {
		return reason
	}
	if action == runtime.ActionReclaim && r.Method() == runtime.MethodLCA {
		return idProblem(t, preemptor)
	}
	return ""
}

// validAction reports whether a is one of the two actions a min-runtime
// applies to: runtime.ActionPreempt or runtime.ActionReclaim. Every other
// value is denied with ReasonInvalidAction, even under FailOpen. O(1).
func validAction(a runtime.Action) bool {
	return a == runtime.ActionPreempt || a == runtime.ActionReclaim
}

// idProblem classifies one queue ID against t.
func idProblem(t *queuetree.Tree, id queuetree.ID) eligibility.Reason {
	switch {
	case id == queuetree.None:
		return ReasonQueueUnset
	case !t.Valid(id):
		return ReasonUnknownQueue
	}
	return ""
}

// The fail-closed reasons of the filter and the validator: the victim's
// (or, under the lca method, the reclaimer's) protection cannot be known.
const (
	// ReasonUnknownQueue: the queue ID is not the resolver's tree's.
	ReasonUnknownQueue eligibility.Reason = "unknown_queue"
	// ReasonQueueUnset: the queue is queuetree.None, never set.
	ReasonQueueUnset eligibility.Reason = "queue_unset"
	// ReasonNoResolver: no Resolver is set.
	ReasonNoResolver eligibility.Reason = "no_resolver"
)

// subgroups returns j's subgroups: Subgroups when set, else what
// SubgroupsFunc returns (nil when neither is set).
func subgroups(j *eligibility.Job) []eligibility.Subgroup {
	if j.Subgroups == nil && j.SubgroupsFunc != nil {
		return j.SubgroupsFunc()
	}
	return j.Subgroups
}
