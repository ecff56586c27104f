package runtime

import (
	"fmt"
	"strconv"
)

// Action is the kind of eviction a min-runtime applies to. The zero value
// is ActionPreempt.
type Action uint8

const (
	// ActionPreempt is an eviction by a job of the same leaf queue
	// (in-queue preemption); it uses the queues' Preempt settings.
	ActionPreempt Action = iota
	// ActionReclaim is an eviction by a job of another queue taking back
	// its share (reclaim); it uses the queues' Reclaim settings and the
	// configured [Method].
	ActionReclaim
)

// String returns "preempt" or "reclaim" ("Action(n)" for any other value).
func (a Action) String() string {
	switch a {
	case ActionPreempt:
		return "preempt"
	case ActionReclaim:
		return "reclaim"
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

// Method is how a reclaim's min-runtime is resolved (KAI-Scheduler's min-runtime plugin's
// reclaimResolveMethod). The zero value is MethodLCA, the default.
type Method uint8

const (
	// MethodLCA resolves a reclaim at the child of the lowest common
	// ancestor of the two queues on the victim's side, so a setting only
	// protects a queue against its siblings and their descendants.
	MethodLCA Method = iota
	// MethodQueue resolves a reclaim from the victim's own queue, whoever
	// the reclaimer is, as preemption does.
	MethodQueue
)

// String returns "lca" or "queue" ("Method(n)" for any other value), the
// names [ParseConfig] accepts for reclaimResolveMethod.
func (m Method) String() string {
	switch m {
	case MethodLCA:
		return "lca"
	case MethodQueue:
		return "queue"
	}
	return "Method(" + strconv.Itoa(int(m)) + ")"
}

// parseMethod parses a method name: exactly "lca" or "queue". In the
// KAI-Scheduler revisions checked (pkg/scheduler/plugins/minruntime/
// minruntime.go at 07981a98 and e04a7907) the plugin's New replaces an
// empty or unknown value with "lca"; its resolver (resolver.go,
// getReclaimMinRuntime) treats any value but "lca" as "queue".
func parseMethod(s string) (Method, error) {
	switch s {
	case "lca":
		return MethodLCA, nil
	case "queue":
		return MethodQueue, nil
	}
	return MethodLCA, fmt.Errorf("runtime: unknown reclaim resolve method %q (want \"lca\" or \"queue\")", s)
}
