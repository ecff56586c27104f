package runtime_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestUpdateResolverFollowsLeafPatch: after one queue is added, removed or
// moved (queuetree.Apply), UpdateResolver with the settings of the queues
// still there answers every query as a fresh NewResolver does, and it
// patches the previous resolver (followShifts) exactly when the tree was
// patched one leaf at a time and no removed queue had a setting; with a
// removed queue's setting still listed, it fails as NewResolver does.
func TestUpdateResolverFollowsLeafPatch(t *testing.T) {
	followed := 0
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 25).Draw(rt, "n")
		qs := make([]queuetree.Queue, n)
		for i := range qs {
			qs[i].Name = fmt.Sprintf("q%02d", rapid.IntRange(0, 99).Draw(rt, "name")) + fmt.Sprint(i)
			if i > 0 && rapid.IntRange(0, 3).Draw(rt, "top") != 0 {
				qs[i].Parent = qs[rapid.IntRange(0, i-1).Draw(rt, "parent")].Name
			}
		}
		tree, err := queuetree.New(qs)
		if err != nil {
			rt.Fatal(err)
		}
		c1 := runtime.Config{DefaultPreempt: time.Minute, DefaultReclaim: 2 * time.Minute,
			Method: runtime.Method(rapid.IntRange(0, 1).Draw(rt, "method"))}
		for _, q := range qs {
			if rapid.IntRange(0, 2).Draw(rt, "has") != 0 {
				continue
			}
			s := runtime.QueueSetting{Queue: q.Name}
			if v := rapid.IntRange(-1, 5).Draw(rt, "pre"); v >= 0 {
				s.Preempt = runtime.Explicit(time.Duration(v) * time.Minute)
			}
			if v := rapid.IntRange(-1, 5).Draw(rt, "rec"); v >= 0 {
				s.Reclaim = runtime.Explicit(time.Duration(v) * time.Minute)
			}
			c1.Queues = append(c1.Queues, s)
		}
		r1, err := runtime.NewResolver(tree, c1)
		if err != nil {
			rt.Fatal(err)
		}
		target := qs[rapid.IntRange(0, n-1).Draw(rt, "target")].Name
		parent := rapid.SampledFrom(append([]string{""}, names(qs)...)).Draw(rt, "to")
		var e queuetree.Edit
		switch rapid.IntRange(0, 2).Draw(rt, "op") {
		case 0:
			e = queuetree.Edit{Name: "added", Parent: parent}
		case 1:
			e = queuetree.Edit{Name: target, Remove: true}
		default:
			e = queuetree.Edit{Name: target, Parent: parent}
		}
		t2, err := queuetree.Apply(tree, e)
		if err != nil {
			return // an orphan or a cycle: no tree to follow
		}
		c2 := c1
		if rapid.IntRange(0, 4).Draw(rt, "keepRemoved") != 0 {
			c2.Queues = slices.DeleteFunc(slices.Clone(c1.Queues), func(s runtime.QueueSetting) bool {
				_, ok := t2.Lookup(s.Queue)
				return !ok
			})
		}
		got, _, gerr := runtime.UpdateResolver(r1, t2, c2)
		want, werr := runtime.NewResolver(t2, c2)
		if (gerr == nil) != (werr == nil) {
			rt.Fatalf("errors: update %v, build %v", gerr, werr)
		}
		shifts, patched := t2.ShiftsFrom(tree)
		f := runtime.FollowShifts(r1, t2, c2)
		removedSetting := e.Remove && len(c2.Queues) == len(c1.Queues) && len(c1.Queues) > 0 && hasSetting(c1, e.Name)
		if wantF := patched && werr == nil && !removedSetting && len(c2.Queues) == len(c1.Queues); (f != nil) != wantF {
			rt.Fatalf("followShifts served %v, want %v (shifts %v, edit %+v)", f != nil, wantF, shifts, e)
		}
		if want == nil {
			return
		}
		if f != nil {
			followed++
			sameAnswers(rt, t2, f, want)
		}
		sameAnswers(rt, t2, got, want)
	})
	if followed == 0 {
		t.Fatal("followShifts never served a case")
	}
	t.Logf("%d cases followed", followed)
}

// names lists the queues' names.
func names(qs []queuetree.Queue) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Name
	}
	return out
}

// hasSetting reports whether c lists a setting for queue.
func hasSetting(c runtime.Config, queue string) bool {
	return slices.ContainsFunc(c.Queues, func(s runtime.QueueSetting) bool { return s.Queue == queue })
}

// sameAnswers fails unless got answers every preempt and reclaim query on
// t's IDs as want does.
func sameAnswers(rt *rapid.T, t *queuetree.Tree, got, want *runtime.Resolver) {
	if got.Method() != want.Method() || got.Tree() != want.Tree() {
		rt.Fatalf("Method %v, tree %p; want %v, %p", got.Method(), got.Tree(), want.Method(), want.Tree())
	}
	for a := range t.IDs() {
		if g, w := got.Preempt(a), want.Preempt(a); g != w {
			rt.Fatalf("Preempt(%v) = %v, want %v", a, g, w)
		}
		for b := range t.IDs() {
			for _, m := range []runtime.Method{runtime.MethodLCA, runtime.MethodQueue} {
				if g, w := got.ReclaimWithMethod(m, a, b), want.ReclaimWithMethod(m, a, b); g != w {
					rt.Fatalf("Reclaim(%v, %v, %v) = %v, want %v", m, a, b, g, w)
				}
			}
		}
	}
}
