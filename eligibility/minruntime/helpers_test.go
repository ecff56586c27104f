package minruntime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/eltest"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// The shared fixtures (package eltest), under this package's test names.
var (
	elT0    = eltest.T0
	elMin   = eltest.Min
	elSetup = eltest.Setup
	elID    = eltest.ID
)

type elQueue = eltest.Queue

// elDesignTree is the reclaim example tree of KAI-Scheduler's min-runtime design (PR #126), A → B(600s) → {C →
// {leaf1(0s), leaf2(180s)}, D(60s) → leaf3}, with its preempt example
// settings on the same queues: B 600s, leaf1 300s (leaf2 inherits 600s).
func elDesignTree(tb testing.TB, method runtime.Method) (*queuetree.Tree, *runtime.Resolver) {
	return elSetup(tb, method, 0, 0,
		elQueue{Name: "A"},
		elQueue{Name: "B", Parent: "A", Preempt: "600s", Reclaim: "600s"},
		elQueue{Name: "C", Parent: "B"},
		elQueue{Name: "D", Parent: "B", Reclaim: "60s"},
		elQueue{Name: "leaf1", Parent: "C", Preempt: "300s", Reclaim: "0s"},
		elQueue{Name: "leaf2", Parent: "C", Reclaim: "180s"},
		elQueue{Name: "leaf3", Parent: "D"},
	)
}

// validLabel reports whether r is a well-formed reason label, as the
// Reason type documents it: 1 to 64 characters, each a lower-case ASCII
// letter, a digit or '_', starting with a letter.
func validLabel(r eligibility.Reason) bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		if c := r[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
