package reserve

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
)

// genWorld draws a small world: up to 5 nodes of up to 8 units in up to 2
// domains, up to 10 jobs on them (bad data included), and one request.
func genWorld(t *rapid.T) (Input, Request) {
	n := rapid.IntRange(1, 5).Draw(t, "nodes")
	in := Input{}
	for i := range n {
		in.Nodes = append(in.Nodes, Node{Name: fmt.Sprintf("n%d", i), Capacity: rapid.Int64Range(0, 8).Draw(t, "cap"),
			Domain: rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "domain")})
	}
	minutes := func(label string, lo, hi int) time.Duration {
		return time.Duration(rapid.IntRange(lo, hi).Draw(t, label)) * time.Minute
	}
	for j := range rapid.IntRange(0, 10).Draw(t, "jobs") {
		job := Job{Victim: requeue.Victim{ID: fmt.Sprintf("j%d", j), Start: t0.Add(-minutes("age", 0, 300)),
			Resources: float64(rapid.IntRange(0, 8).Draw(t, "res"))},
			Node: fmt.Sprintf("n%d", rapid.IntRange(0, n).Draw(t, "on")), Units: rapid.Int64Range(-1, 8).Draw(t, "units")}
		if rapid.IntRange(0, 4).Draw(t, "hasExpected") > 0 {
			job.Expected = minutes("expected", 1, 400)
		}
		if rapid.Bool().Draw(t, "protected") {
			job.ProtectedUntil = t0.Add(minutes("protected", -60, 300))
		}
		if rapid.IntRange(0, 3).Draw(t, "hasNotBefore") == 0 {
			job.NotBefore = t0.Add(minutes("notBefore", -60, 300))
		}
		if rapid.Bool().Draw(t, "checkpointed") {
			job.LastCheckpoint = t0.Add(-minutes("checkpoint", 0, 300))
		}
		in.Running = append(in.Running, job)
	}
	r := request("g", rapid.IntRange(1, 3).Draw(t, "tasks"), rapid.Int64Range(1, 8).Draw(t, "perTask"), time.Hour)
	r.OneDomain = rapid.Bool().Draw(t, "oneDomain")
	in.Pending = []Request{r}
	return in, r
}

// naiveNodeStart is when node (by index) can hold units, found by trying
// every release instant in turn; ok false for never. With the instant,
// the jobs that must go (those released by then), as releases.
func naiveNodeStart(in *Input, node int, units int64) (time.Duration, []release, bool) {
	nd := in.Nodes[node]
	if slices.ContainsFunc(in.Nodes[:node], func(o Node) bool { return o.Name == nd.Name }) {
		return 0, nil, false
	}
	var rs []release
	for i := range in.Running {
		if in.Running[i].Node == nd.Name {
			if in.Running[i].Units < 0 {
				return 0, nil, false
			}
			rs = append(rs, naiveRelease(t0, &in.Running[i], int32(i)))
		}
	}
	if nd.Capacity < units {
		return 0, nil, false
	}
	times := []time.Duration{0}
	for _, r := range rs {
		if r.at != never {
			times = append(times, r.at)
		}
	}
	slices.Sort(times)
	for _, at := range times {
		free := nd.Capacity
		var gone []release
		for _, r := range rs {
			if r.at > at {
				free -= r.units
			} else {
				gone = append(gone, r)
			}
		}
		if free >= units {
			// The plan evicts, of the jobs gone by then, the fewest in release order.
			slices.SortFunc(gone, view{in.Running, t0}.compare)
			need := units - (free - sumUnits(gone))
			var must []release
			for _, r := range gone {
				if need <= 0 {
					break
				}
				must, need = append(must, r), need-r.units
			}
			return at, must, true
		}
	}
	return 0, nil, false
}

func sumUnits(rs []release) int64 {
	var s int64
	for _, r := range rs {
		s += r.units
	}
	return s
}

// naivePlan tries every set of r.Tasks nodes: the earliest start, then the
// least work lost there.
func naivePlan(in *Input, r Request) (time.Duration, float64, bool) {
	type nodeStart struct {
		at   time.Duration
		must []release
	}
	var ok []int
	starts := map[int]nodeStart{}
	for i := range in.Nodes {
		if at, must, fine := naiveNodeStart(in, i, r.Units); fine && (!r.OneDomain || in.Nodes[i].Domain != "") {
			ok = append(ok, i)
			starts[i] = nodeStart{at, must}
		}
	}
	best, bestLoss, found := never, math.Inf(1), false
	var walk func(from int, set []int)
	walk = func(from int, set []int) {
		if len(set) == r.Tasks {
			if r.OneDomain && slices.ContainsFunc(set, func(n int) bool { return in.Nodes[n].Domain != in.Nodes[set[0]].Domain }) {
				return
			}
			var at time.Duration
			for _, n := range set {
				at = max(at, starts[n].at)
			}
			loss := 0.0
			for _, n := range set {
				for _, m := range starts[n].must {
					loss += view{in.Running, t0}.lossAt(m, at)
				}
			}
			if at < best || (at == best && loss < bestLoss) {
				best, bestLoss, found = at, loss, true
			}
			return
		}
		for i := from; i < len(ok); i++ {
			walk(i+1, append(set, ok[i]))
		}
	}
	walk(0, nil)
	return best, bestLoss, found
}

// The planned start is the earliest any set of nodes can offer, and of the
// sets that offer it the plan loses the least work: against a search of
// every set.
func TestPlannedStartAgainstEverySet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, r := genWorld(t)
		res, err := mustNewT(t).Plan(t0, in, nil)
		if err != nil {
			t.Fatal(err)
		}
		at, loss, ok := naivePlan(&in, r)
		if !ok {
			if len(res.Held) != 0 {
				t.Fatalf("held %+v; no set can serve the request", res.Held)
			}
			return
		}
		if len(res.Held) != 1 {
			t.Fatalf("held nothing; the set search starts it at now+%v", at)
		}
		h := res.Held[0]
		if got := h.Start.Sub(t0); got != at {
			t.Fatalf("planned start now+%v, every-set search now+%v", got, at)
		}
		if math.Abs(h.LostWork-loss) > 1e-6*max(1, loss) {
			t.Fatalf("lost work %v, every-set search %v", h.LostWork, loss)
		}
		if len(h.Nodes) != r.Tasks || slices.Compact(slices.Clone(h.Nodes)) == nil || len(slices.Compact(slices.Clone(h.Nodes))) != r.Tasks {
			t.Fatalf("nodes %v for %d tasks", h.Nodes, r.Tasks)
		}
	})
}

func mustNewT(t *rapid.T) *Planner {
	p, err := New(Config{Max: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The plan does not depend on the order of the nodes and jobs.
func TestPlanIgnoresInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, _ := genWorld(t)
		a, _ := mustNewT(t).Plan(t0, in, nil)
		perm := rapid.Permutation(in.Running).Draw(t, "running")
		nodes := slices.Clone(in.Nodes)
		// Reversing keeps the first of duplicate names first only without duplicates.
		if len(slices.CompactFunc(slices.SortedFunc(slices.Values(nodes), func(x, y Node) int { return cmp.Compare(x.Name, y.Name) }), func(x, y Node) bool { return x.Name == y.Name })) == len(nodes) {
			slices.Reverse(nodes)
		}
		b, _ := mustNewT(t).Plan(t0, Input{Nodes: nodes, Running: perm, Pending: in.Pending}, nil)
		if len(a.Held) != len(b.Held) || (len(a.Held) == 1 && (!slices.Equal(a.Held[0].Nodes, b.Held[0].Nodes) || !a.Held[0].Start.Equal(b.Held[0].Start))) {
			t.Fatalf("%+v\nreordered: %+v", a.Held, b.Held)
		}
	})
}

// naiveRelease is the package doc's release rule written out on its own:
// gone at the latest of the expected end, the protection end, the
// not-before gate and now; never without an expected runtime or a start.
func naiveRelease(now time.Time, j *Job, k int32) release {
	r := release{units: j.Units, job: k, at: never}
	if j.Expected <= 0 || j.Start.IsZero() {
		return r
	}
	latest := now
	end := j.Start.Add(j.Expected)
	r.over = !end.After(now)
	for _, t := range []time.Time{end, j.ProtectedUntil, j.NotBefore} {
		if t.After(latest) {
			latest = t
		}
	}
	r.at = latest.Sub(now)
	return r
}
