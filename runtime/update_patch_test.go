package runtime_test

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestUpdateResolverPatchedEqualsBuild: when queue settings change,
// UpdateResolver's new resolver answers every query as a fresh
// NewResolver's does, and the next identical update reuses it; a bad
// setting or other defaults give NewResolver's result too.
func TestUpdateResolverPatchedEqualsBuild(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(rt, "n")
		qs := make([]queuetree.Queue, n)
		for i := range qs {
			qs[i].Name = fmt.Sprintf("q%d", i)
			if i > 0 && rapid.IntRange(0, 3).Draw(rt, "top") != 0 {
				qs[i].Parent = qs[rapid.IntRange(0, i-1).Draw(rt, "parent")].Name
			}
		}
		tree, err := queuetree.New(qs)
		if err != nil {
			rt.Fatal(err)
		}
		settings := func(label string) []runtime.QueueSetting {
			var out []runtime.QueueSetting
			for i := range qs {
				if rapid.IntRange(0, 2).Draw(rt, label+"has") != 0 {
					continue
				}
				s := runtime.QueueSetting{Queue: qs[i].Name}
				if v := rapid.IntRange(-2, 5).Draw(rt, label+"pre"); v >= -1 {
					s.Preempt = runtime.Explicit(time.Duration(v) * time.Minute)
				}
				if v := rapid.IntRange(-2, 5).Draw(rt, label+"rec"); v >= -1 {
					s.Reclaim = runtime.Explicit(time.Duration(v) * time.Minute)
				}
				out = append(out, s)
			}
			return out
		}
		method := runtime.Method(rapid.IntRange(0, 1).Draw(rt, "method"))
		c1 := runtime.Config{DefaultPreempt: time.Minute, DefaultReclaim: 2 * time.Minute, Method: method}
		for _, s := range settings("a") {
			if (s.Preempt == nil || *s.Preempt >= 0) && (s.Reclaim == nil || *s.Reclaim >= 0) {
				c1.Queues = append(c1.Queues, s)
			}
		}
		c2 := c1
		c2.Queues = settings("b")
		if rapid.IntRange(0, 5).Draw(rt, "otherDefaults") == 0 {
			c2.DefaultPreempt = 3 * time.Minute
		}
		r1, err := runtime.NewResolver(tree, c1)
		if err != nil {
			rt.Fatal(err)
		}
		got, _, gerr := runtime.UpdateResolver(r1, tree, c2)
		want, werr := runtime.NewResolver(tree, c2)
		if (gerr == nil) != (werr == nil) || (got == nil) != (want == nil) {
			rt.Fatalf("errors: update %v, build %v", gerr, werr)
		}
		if want == nil {
			return
		}
		sameAnswers(rt, tree, got, want)
		if again, reused, err := runtime.UpdateResolver(got, tree, c2); again != got || !reused || err != nil {
			rt.Fatalf("the updated resolver is not reused for the same input: %v, %v", reused, err)
		}
	})
}
