package cluster

import (
	"testing"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"pgregory.net/rapid"
)

// The cluster's trees against naive scans, over random sequences of task
// placements, releases and masks: FindFit (with its memory of tasks that
// fitted nowhere, whose invariant holds after every step) is the first
// unmasked node a task fits, and freeable[c].next finds exactly the nodes whose free resources
// plus the tasks of class <= c would hold the task (as far as the summary
// test goes: the naive oracle applies the same summary to a recomputed
// node).
func TestClusterTreesOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nn := rapid.IntRange(1, 12).Draw(t, "nodes")
		var nodes []trace.Node
		for i := range nn {
			nodes = append(nodes, trace.Node{Name: string(rune('a' + i)), CPU: rapid.Int64Range(0, 64).Draw(t, "cpu"),
				Mem: rapid.Int64Range(0, 64).Draw(t, "mem"), GPUs: int32(rapid.IntRange(0, 8).Draw(t, "gpus"))})
		}
		c := New(nodes)
		type placed struct {
			n    int
			j    trace.Job
			gpus []uint8
		}
		var running []placed
		job := func(label string) trace.Job {
			g := int32(rapid.IntRange(0, 4).Draw(t, label+"gpus"))
			m := int32(0)
			if g > 0 {
				m = int32(rapid.SampledFrom([]int{250, 500, 1000}).Draw(t, label+"milli"))
				if g > 1 {
					m = 1000
				}
			}
			return trace.Job{Class: trace.Class(rapid.IntRange(0, trace.NumClasses-1).Draw(t, label+"class")), CPU: rapid.Int64Range(0, 16).Draw(t, label+"cpu"),
				Mem: rapid.Int64Range(0, 16).Draw(t, label+"mem"), GPUs: g, GPUMilli: m, Tasks: 1, MinTasks: 1}
		}
		naiveFit := func(j *trace.Job) int {
			for n := range nodes {
				if !c.masked[n] && c.Free[n].Fits(j) {
					return n
				}
			}
			return -1
		}
		change := func() {
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				j := job("take")
				if n := naiveFit(&j); n >= 0 {
					running = append(running, placed{n, j, c.Take(n, &j, nil)})
				}
			case 1:
				if len(running) > 0 {
					i := rapid.IntRange(0, len(running)-1).Draw(t, "give")
					p := running[i]
					c.Give(p.n, &p.j, p.gpus)
					running = append(running[:i], running[i+1:]...)
				}
			case 2:
				n := rapid.IntRange(0, nn-1).Draw(t, "mask")
				c.SetMask(n, !c.masked[n])
			}
		}
		for range rapid.IntRange(1, 60).Draw(t, "steps") {
			// Several changes between two queries: the trees refresh
			// their stale nodes at the next query.
			for range rapid.IntRange(1, 4).Draw(t, "changes") {
				change()
			}
			j := job("probe")
			checkFit := func() {
				if got, want := c.FindFit(&j), naiveFit(&j); got != want {
					t.Fatalf("findFit %+v = %d, naive %d", j, got, want)
				}
				from := rapid.IntRange(0, nn-1).Draw(t, "fitFrom")
				want := -1
				for n := from; n < nn; n++ {
					if !c.masked[n] && c.Free[n].Fits(&j) {
						want = n
						break
					}
				}
				if got := c.NextFit(from, &j); got != want {
					t.Fatalf("NextFit(%d, %+v) = %d, naive %d", from, j, got, want)
				}
				if err := c.fits.Check(nn, func(k Vec, n int) bool {
					j := trace.Job{CPU: k.MilliCPU, Mem: k.Memory, GPUs: int32(k.GPU), GPUMilli: int32(k.GPUMilli)}
					return c.fitsNode(n, &j)
				}); err != nil {
					t.Fatal(err)
				}
			}
			checkFreeable := func() {
				for k := trace.Class(0); k < trace.NumClasses; k++ {
					from := rapid.IntRange(0, nn-1).Draw(t, "from")
					want := -1
					for n := from; n < nn; n++ {
						f := NodeFree{CPU: c.Free[n].CPU, Mem: c.Free[n].Mem, GPU: append([]int32(nil), c.Free[n].GPU...)}
						for _, p := range running {
							if p.n == n && p.j.Class <= k {
								f.Give(&p.j, p.gpus)
							}
						}
						if Demand(&j).Fits(f.summary()) {
							want = n
							break
						}
					}
					if got := c.FreeableNext(k, from, Demand(&j)); got != want {
						t.Fatalf("freeable[%d].next(%d, %+v) = %d, naive %d", k, from, j, got, want)
					}
				}
			}
			// The first query after the changes refreshes the trees: each
			// kind goes first in about half the steps.
			if rapid.Bool().Draw(t, "freeableFirst") {
				checkFreeable()
				checkFit()
			} else {
				checkFit()
				checkFreeable()
			}
		}
	})
}
