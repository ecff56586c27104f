package cluster

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/internal/journalhook"
)

// naiveCluster is the oracle for Cluster: plain maps, a linear first-fit
// scan, and deep copies instead of a journal.
type naiveCluster struct {
	order []string // node names in order
	cap   map[string]Resources
	free  map[string]Resources
	jobs  map[string]*naiveJob
}

type naiveJob struct {
	tasks []Resources
	min   int
	on    []string
}

func newNaiveCluster(nodes []Node) *naiveCluster {
	n := &naiveCluster{cap: map[string]Resources{}, free: map[string]Resources{}, jobs: map[string]*naiveJob{}}
	for _, x := range nodes {
		n.order = append(n.order, x.Name)
		n.cap[x.Name] = x.Capacity
		n.free[x.Name] = x.Capacity
	}
	return n
}

func (n *naiveCluster) clone() *naiveCluster {
	d := &naiveCluster{order: n.order, cap: n.cap, free: maps.Clone(n.free), jobs: map[string]*naiveJob{}}
	for id, j := range n.jobs {
		d.jobs[id] = &naiveJob{tasks: j.tasks, min: j.min, on: slices.Clone(j.on)}
	}
	return d
}

func (n *naiveCluster) snapshot() Snapshot {
	s := Snapshot{Free: maps.Clone(n.free), Jobs: map[string][]string{}}
	for id, j := range n.jobs {
		s.Jobs[id] = slices.Clone(j.on)
	}
	return s
}

func (n *naiveCluster) running(j *naiveJob) bool {
	for _, x := range j.on {
		if x != "" {
			return true
		}
	}
	return false
}

func (n *naiveCluster) addJob(job Job) error {
	if job.ID == "" || n.jobs[job.ID] != nil || len(job.Tasks) == 0 || job.MinTasks < 0 || job.MinTasks > len(job.Tasks) {
		return errors.New("invalid")
	}
	for _, t := range job.Tasks {
		if t.negative() {
			return errors.New("invalid")
		}
	}
	m := job.MinTasks
	if m == 0 {
		m = len(job.Tasks)
	}
	n.jobs[job.ID] = &naiveJob{tasks: slices.Clone(job.Tasks), min: m, on: make([]string, len(job.Tasks))}
	return nil
}

func (n *naiveCluster) release(j *naiveJob) {
	for t, x := range j.on {
		if x != "" {
			n.free[x] = n.free[x].add(j.tasks[t])
			j.on[t] = ""
		}
	}
}

func (n *naiveCluster) removeJob(id string) error {
	j := n.jobs[id]
	if j == nil {
		return errors.New("unknown")
	}
	n.release(j)
	delete(n.jobs, id)
	return nil
}

func (n *naiveCluster) evict(id string) error {
	j := n.jobs[id]
	if j == nil || !n.running(j) {
		return errors.New("cannot evict")
	}
	n.release(j)
	return nil
}

func (n *naiveCluster) place(id string) (bool, error) {
	j := n.jobs[id]
	if j == nil || n.running(j) {
		return false, errors.New("cannot place")
	}
	before := maps.Clone(n.free)
	placed := 0
	for t, req := range j.tasks {
		for _, name := range n.order {
			if req.fits(n.free[name]) {
				n.free[name] = n.free[name].sub(req)
				j.on[t] = name
				placed++
				break
			}
		}
	}
	if placed < j.min {
		n.free = before
		clear(j.on)
		return false, nil
	}
	return true, nil
}

func (n *naiveCluster) bind(id string, nodes []string) error {
	j := n.jobs[id]
	if j == nil || n.running(j) || len(nodes) != len(j.tasks) {
		return errors.New("cannot bind")
	}
	free := maps.Clone(n.free)
	count := 0
	for t, name := range nodes {
		if name == "" {
			continue
		}
		f, ok := free[name]
		if !ok || !j.tasks[t].fits(f) {
			return errors.New("does not fit")
		}
		free[name] = f.sub(j.tasks[t])
		count++
	}
	if count < j.min {
		return errors.New("below minimum")
	}
	n.free = free
	copy(j.on, nodes)
	return nil
}

var smNodes = []Node{
	{"n0", Resources{4000, 8, 1}},
	{"n1", Resources{2000, 16, 0}},
	{"n2", Resources{8000, 4, 2}},
	{"n3", Resources{1000, 2, 0}},
}

func drawResources(t *rapid.T, label string) Resources {
	return Resources{
		MilliCPU: rapid.Int64Range(0, 5000).Draw(t, label+".cpu"),
		Memory:   rapid.Int64Range(0, 10).Draw(t, label+".mem"),
		GPU:      rapid.Int64Range(0, 2).Draw(t, label+".gpu"),
	}
}

type smCheckpoint struct {
	cp    requeue.Checkpoint
	state *naiveCluster
}

// TestClusterJournalStateMachine drives Cluster and Journal with random
// operations, nested checkpoints, rollbacks (valid, stale, foreign, zero)
// and commits, and compares every step with a naive copy-based oracle.
// Besides the five IDs that come and go, it churns: bulk additions of fresh
// jobs, bulk removals, and remove+add cycles, so that job storage is reused,
// grows and shrinks between a checkpoint and its rollback; and it clones.
// After every step the storage holds exactly the registered jobs.
func TestClusterJournalStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, err := New(smNodes)
		if err != nil {
			t.Fatal(err)
		}
		oracle := newNaiveCluster(smNodes)
		var j, other requeue.Journal
		var stack []smCheckpoint       // the oracle's valid checkpoints, oldest first
		var taken []requeue.Checkpoint // every checkpoint ever taken, valid or not
		ids := rapid.SampledFrom([]string{"a", "b", "c", "d", "e", ""})
		nodeNames := rapid.SampledFrom([]string{"n0", "n1", "n2", "n3", "", "nx"})
		fresh := 0
		// addFresh adds a small job with a new ID, placed or not.
		addFresh := func(t *rapid.T, id string) {
			job := Job{ID: id, Tasks: []Resources{{MilliCPU: rapid.Int64Range(0, 200).Draw(t, "cpu")}}}
			if err, werr := c.AddJob(&j, job), oracle.addJob(job); err != nil || werr != nil {
				t.Fatalf("AddJob(%s) = %v, oracle %v", id, err, werr)
			}
			if rapid.Bool().Draw(t, "place") {
				ok, err := c.Place(&j, id)
				wok, werr := oracle.place(id)
				if ok != wok || err != nil || werr != nil {
					t.Fatalf("Place(%s) = %v, %v; oracle %v, %v", id, ok, err, wok, werr)
				}
			}
		}
		registered := func() []string { return slices.Sorted(maps.Keys(oracle.jobs)) }

		t.Repeat(map[string]func(*rapid.T){
			"add": func(t *rapid.T) {
				job := Job{ID: ids.Draw(t, "id")}
				nt := rapid.IntRange(0, 4).Draw(t, "tasks")
				for i := range nt {
					job.Tasks = append(job.Tasks, drawResources(t, fmt.Sprint("task", i)))
				}
				job.MinTasks = rapid.IntRange(-1, nt+1).Draw(t, "min")
				got, want := c.AddJob(&j, job), oracle.addJob(job)
				if (got == nil) != (want == nil) {
					t.Fatalf("AddJob(%+v) = %v, oracle %v", job, got, want)
				}
			},
			"remove": func(t *rapid.T) {
				id := ids.Draw(t, "id")
				got, want := c.removeJob(&j, id), oracle.removeJob(id)
				if (got == nil) != (want == nil) {
					t.Fatalf("removeJob(%q) = %v, oracle %v", id, got, want)
				}
			},
			"evict": func(t *rapid.T) {
				id := ids.Draw(t, "id")
				got, want := c.Evict(&j, id), oracle.evict(id)
				if (got == nil) != (want == nil) {
					t.Fatalf("Evict(%q) = %v, oracle %v", id, got, want)
				}
			},
			"place": func(t *rapid.T) {
				id := ids.Draw(t, "id")
				ok, err := c.Place(&j, id)
				wok, werr := oracle.place(id)
				if ok != wok || (err == nil) != (werr == nil) {
					t.Fatalf("Place(%q) = %v, %v; oracle %v, %v", id, ok, err, wok, werr)
				}
			},
			"bind": func(t *rapid.T) {
				id := ids.Draw(t, "id")
				nodes := rapid.SliceOfN(nodeNames, 0, 4).Draw(t, "nodes")
				got, want := c.Bind(&j, id, nodes), oracle.bind(id, nodes)
				if (got == nil) != (want == nil) {
					t.Fatalf("Bind(%q, %q) = %v, oracle %v", id, nodes, got, want)
				}
			},
			"addMany": func(t *rapid.T) {
				for range rapid.IntRange(1, 100).Draw(t, "n") {
					fresh++
					addFresh(t, fmt.Sprint("z", fresh))
				}
			},
			"removeMany": func(t *rapid.T) {
				all := registered()
				n := rapid.IntRange(0, len(all)).Draw(t, "n")
				for _, id := range rapid.Permutation(all).Draw(t, "order")[:n] {
					if err, werr := c.removeJob(&j, id), oracle.removeJob(id); err != nil || werr != nil {
						t.Fatalf("removeJob(%s) = %v, oracle %v", id, err, werr)
					}
				}
			},
			"cycle": func(t *rapid.T) { // a job finishes, another one starts
				all := registered()
				if len(all) == 0 {
					t.Skip("no job")
				}
				for range rapid.IntRange(1, 20).Draw(t, "n") {
					id := rapid.SampledFrom(all).Draw(t, "gone")
					if oracle.jobs[id] == nil {
						continue
					}
					if err, werr := c.removeJob(&j, id), oracle.removeJob(id); err != nil || werr != nil {
						t.Fatalf("removeJob(%s) = %v, oracle %v", id, err, werr)
					}
					if !rapid.Bool().Draw(t, "same ID") {
						fresh++
						id = fmt.Sprint("z", fresh)
					}
					addFresh(t, id)
				}
			},
			"clone": func(t *rapid.T) {
				d := c.Clone()
				if err := d.check(); err != nil {
					t.Fatalf("clone: %v", err)
				}
				if d := cmp.Diff(c.Snapshot(), d.Snapshot()); d != "" {
					t.Fatalf("clone differs (-want +got):\n%s", d)
				}
				// The clone is independent: changing it leaves c alone.
				before := c.Snapshot()
				for _, id := range d.jobIDs() {
					_ = d.Evict(nil, id)
					_ = d.removeJob(nil, id)
				}
				if err := d.AddJob(nil, Job{ID: "a", Tasks: []Resources{{}}}); err != nil {
					t.Fatal(err)
				}
				if _, err := d.Place(nil, "a"); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(before, c.Snapshot()); d != "" {
					t.Fatalf("changing the clone changed the original (-want +got):\n%s", d)
				}
			},
			"checkpoint": func(t *rapid.T) {
				cp := j.Checkpoint()
				stack = append(stack, smCheckpoint{cp, oracle.clone()})
				taken = append(taken, cp)
			},
			"rollback": func(t *rapid.T) {
				var cp requeue.Checkpoint
				kind := rapid.IntRange(0, 9).Draw(t, "kind")
				switch {
				case kind == 0:
					cp = requeue.Checkpoint{}
				case kind == 1:
					other.Record(func() {})
					cp = other.Checkpoint()
				case len(taken) == 0:
					t.Skip("no checkpoint taken yet")
				default:
					cp = taken[rapid.IntRange(0, len(taken)-1).Draw(t, "which")]
				}
				before := oracle.snapshot()
				err := j.Rollback(cp)
				// The oracle: cp is valid iff it is on the stack (equal
				// checkpoints mark the same position, so take the last).
				i := -1
				for k := range stack {
					if stack[k].cp == cp {
						i = k
					}
				}
				switch {
				case kind <= 1: // the zero checkpoint or another journal's
					if !errors.Is(err, requeue.ErrInvalidCheckpoint) {
						t.Fatalf("Rollback(foreign) = %v, want ErrInvalidCheckpoint", err)
					}
				case i < 0:
					if !errors.Is(err, requeue.ErrInvalidCheckpoint) {
						t.Fatalf("Rollback(stale) = %v, want ErrInvalidCheckpoint", err)
					}
				default:
					if err != nil {
						t.Fatalf("Rollback(valid) = %v", err)
					}
					oracle = stack[i].state.clone()
					stack = stack[:i+1]
				}
				if err != nil {
					if d := cmp.Diff(before, c.Snapshot()); d != "" {
						t.Fatalf("rejected rollback changed the state (-want +got):\n%s", d)
					}
				}
			},
			"commit": func(t *rapid.T) {
				if err := j.Commit(); err != nil {
					t.Fatal(err)
				}
				stack = stack[:0]
				if journalhook.Len(&j) != 0 {
					t.Fatalf("Len after Commit = %d", journalhook.Len(&j))
				}
			},
			"": func(t *rapid.T) {
				if err := c.check(); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(oracle.snapshot(), c.Snapshot()); d != "" {
					t.Fatalf("cluster differs from oracle (-want +got):\n%s", d)
				}
				if len(c.jobs) != len(oracle.jobs) {
					t.Fatalf("%d job slots for %d jobs", len(c.jobs), len(oracle.jobs))
				}
			},
		})
	})
}
