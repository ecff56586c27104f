package runtime

import "github.com/tenurepolicy/tenure/queuetree"

// FollowShifts exposes followShifts to the tests of package runtime_test,
// which check that it serves the one-leaf patches it is for.
func FollowShifts(r *Resolver, t *queuetree.Tree, c Config) *Resolver { return r.followShifts(t, c) }
