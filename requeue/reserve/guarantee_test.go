package reserve

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// The guarantee, simulated: when every job keeps its word (one expected to
// end ends then; one past its expected end stays until requeued) and no
// filter denies an eviction, the holder starts by its first planned start,
// placed by the pass at that start. Cycles run at every instant a job ends
// and at the planned start.
func TestHolderStartsByItsFirstPlannedStart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, in := genKeptWorld(t)
		p := mustNewT(t)
		res, err := p.Plan(t0, in, m)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Held) == 0 {
			return // no set can serve it (a request larger than every node)
		}
		first := res.Held[0].Start
		now, started := t0, placed1(res)
		for step := 0; !started && step < 100; step++ {
			if now.After(first) {
				t.Fatalf("the holder has not started by its first planned start now+%v (now+%v): %+v", first.Sub(t0), now.Sub(t0), res)
			}
			now = nextEvent(now, first, in.Running)
			in.Running = endKept(m, now, in.Running)
			in.Running = slices.DeleteFunc(in.Running, func(j Job) bool { return slices.Contains(committed(passOf(res)), j.ID) })
			if res, err = p.Plan(now, in, m); err != nil {
				t.Fatal(err)
			}
			started = placed1(res)
		}
		if !started {
			t.Fatalf("never started; first planned start now+%v", first.Sub(t0))
		}
		if now.After(first) {
			t.Fatalf("started at now+%v, after its first planned start now+%v", now.Sub(t0), first.Sub(t0))
		}
	})
}

// genKeptWorld draws up to 4 nodes of 8 GPUs filled with jobs (some past
// their expected end), and one request of 1–2 tasks.
func genKeptWorld(t *rapid.T) (*cluster.Model, Input) {
	n := rapid.IntRange(1, 4).Draw(t, "nodes")
	in := Input{Nodes: gpuNodes(n, 8)}
	var cn []cluster.Node
	for _, nd := range in.Nodes {
		cn = append(cn, cluster.Node{Name: nd.Name, Capacity: cluster.Resources{GPU: 8}})
	}
	m, err := cluster.New(cn)
	if err != nil {
		t.Fatal(err)
	}
	for _, nd := range in.Nodes {
		for left := int64(8); left > 0; {
			u := min(left, rapid.Int64Range(1, 8).Draw(t, "units"))
			left -= u
			j := Job{Node: nd.Name, Units: u}
			j.ID = fmt.Sprintf("j%d", len(in.Running))
			j.Start = t0.Add(-time.Duration(rapid.IntRange(0, 300).Draw(t, "age")) * time.Minute)
			j.Expected = time.Duration(rapid.IntRange(1, 600).Draw(t, "expected")) * time.Minute
			if err := m.AddJob(nil, cluster.Job{ID: j.ID, Tasks: []cluster.Resources{{GPU: u}}}); err != nil {
				t.Fatal(err)
			}
			if err := m.Bind(nil, j.ID, []string{nd.Name}); err != nil {
				t.Fatal(err)
			}
			in.Running = append(in.Running, j)
		}
	}
	r := request("big", rapid.IntRange(1, 2).Draw(t, "tasks"), rapid.Int64Range(1, 8).Draw(t, "perTask"), time.Hour)
	tasks := make([]cluster.Resources, r.Tasks)
	for i := range tasks {
		tasks[i] = cluster.Resources{GPU: r.Units}
	}
	if err := m.AddJob(nil, cluster.Job{ID: "big", Tasks: tasks}); err != nil {
		t.Fatal(err)
	}
	in.Pending = []Request{r}
	return m, in
}

// nextEvent is the next instant after now at which a job keeping its word
// ends, or the planned start, whichever comes first.
func nextEvent(now, start time.Time, running []Job) time.Time {
	next := start
	if !next.After(now) {
		next = now.Add(time.Minute)
	}
	for _, j := range running {
		if end := j.Start.Add(j.Expected); end.After(now) && end.Before(next) {
			next = end
		}
	}
	return next
}

// endKept ends, in the model too, the jobs whose expected end is now: they
// keep their word. Jobs already past it at the start stay until requeued.
func endKept(m *cluster.Model, now time.Time, running []Job) []Job {
	return slices.DeleteFunc(running, func(j Job) bool {
		end := j.Start.Add(j.Expected)
		if end.After(now) || !end.After(t0) {
			return false
		}
		_ = m.Evict(nil, j.ID)
		return true
	})
}

func placed1(res Result) bool { return len(res.Passes) > 0 && placed(&res.Passes[0]) }

func passOf(res Result) requeue.EngineResult {
	if len(res.Passes) == 0 {
		return requeue.EngineResult{}
	}
	return res.Passes[0]
}
