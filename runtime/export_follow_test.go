package runtime

import "github.com/tenurepolicy/tenure/queuetree"

// FollowShifts exposes followShifts to the tests of package runtime_test,
// which check that it serves the one-leaf patches it is for.
func FollowShifts(r *Resolver, t *queuetree.Tree, c Config) *Resolver { return r.followShifts(t, c) }

// Patch exposes patch, ApplyResolver's patch, to the tests of package
// runtime_test, which check when it serves.
func Patch(r *Resolver, t *queuetree.Tree, edits []QueueSetting) *Resolver {
	return r.patch(t, edits)
}

// TableLen is the number of entries of r's preempt table (the default's
// included), live or not, for the tests that bound its growth.
func TableLen(r *Resolver) int { return len(r.preTab) }
