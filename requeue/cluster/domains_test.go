package cluster

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// naiveDomains is the oracle of Domains: the distinct non-empty names of
// placement(job), in the order of nodes.
func naiveDomains(c *Model, nodes []Node, job string) []string {
	var out []string
	if !c.running(job) {
		return out
	}
	on := c.placement(job)
	for _, n := range nodes {
		if slices.Contains(on, n.Name) {
			out = append(out, n.Name)
		}
	}
	return out
}

// drawDomainCluster draws a cluster whose jobs are placed by first fit or
// bound to drawn nodes, some with more tasks than Domains sorts on its
// stack.
func drawDomainCluster(t *rapid.T) (*Model, []Node, []string) {
	var nodes []Node
	for i := range rapid.IntRange(1, 12).Draw(t, "nodes") {
		nodes = append(nodes, Node{Name: fmt.Sprint("n", i), Capacity: Resources{GPU: rapid.Int64Range(0, 8).Draw(t, "gpu")}})
	}
	rapid.Permutation(nodes).Draw(t, "node order") // names need not sort like the node order
	c, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(nodes)+1)
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	names = append(names, "")
	var ids []string
	for i := range rapid.IntRange(1, 10).Draw(t, "jobs") {
		id := fmt.Sprint("j", i)
		ids = append(ids, id)
		if rapid.Bool().Draw(t, "bound") {
			// Requests of nothing, bound anywhere: up to 2·domainsOnStack tasks.
			on := rapid.SliceOfN(rapid.SampledFrom(names), 1, 2*domainsOnStack).Draw(t, "on")
			if err := c.AddJob(nil, Job{ID: id, Tasks: make([]Resources, len(on)), MinTasks: 1}); err != nil {
				t.Fatal(err)
			}
			_ = c.Bind(nil, id, on) // fails, leaving it pending, when every task is ""
			continue
		}
		tasks := make([]Resources, rapid.IntRange(1, 4).Draw(t, "tasks"))
		for k := range tasks {
			tasks[k].GPU = rapid.Int64Range(0, 4).Draw(t, "tgpu")
		}
		if err := c.AddJob(nil, Job{ID: id, Tasks: tasks}); err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "run") {
			_, _ = c.Place(nil, id)
		}
	}
	return c, nodes, ids
}

// TestDomainsMatchesPlacement: Domains appends the oracle's names to dst,
// keeps dst's contents, answers alike twice and on a clone, and leaves the
// state alone.
func TestDomainsMatchesPlacement(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, nodes, ids := drawDomainCluster(t)
		before := c.Snapshot()
		for _, id := range append(ids, "ghost", "") {
			prefix := rapid.SliceOfN(rapid.SampledFrom([]string{"x", "n0"}), 0, 2).Draw(t, "prefix")
			dst := append(make([]string, 0, len(prefix)+rapid.IntRange(0, 3).Draw(t, "room")), prefix...)
			got := c.Domains(id, dst)
			want := append(slices.Clone(prefix), naiveDomains(c, nodes, id)...)
			if !slices.Equal(got, want) {
				t.Fatalf("Domains(%q, %q) = %q, want %q (placement %q)", id, prefix, got, want, c.placement(id))
			}
			if again := c.Domains(id, nil); !slices.Equal(again, want[len(prefix):]) {
				t.Fatalf("Domains(%q) again = %q, want %q", id, again, want[len(prefix):])
			}
			if clone := c.Clone().Domains(id, nil); !slices.Equal(clone, want[len(prefix):]) {
				t.Fatalf("a clone's Domains(%q) = %q, want %q", id, clone, want[len(prefix):])
			}
		}
		if !snapshotsEqual(before, c.Snapshot()) {
			t.Fatal("Domains changed the state")
		}
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
	})
	var nilModel *Model
	if got := nilModel.Domains("j", []string{"x"}); !slices.Equal(got, []string{"x"}) {
		t.Fatalf("nil model: %q", got)
	}
}

// TestDomainsLocality is the contract the requeue engine relies on, on the
// reference model: when a pending job fits after evicting a set of running
// jobs, it also fits after evicting only those whose domains meet the
// domains it then occupies.
func TestDomainsLocality(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, _, ids := drawDomainCluster(t)
		var running, pending []string
		for _, id := range ids {
			if c.running(id) {
				running = append(running, id)
			} else {
				pending = append(pending, id)
			}
		}
		if len(running) == 0 || len(pending) == 0 {
			t.Skip("no running or no pending job")
		}
		set := rapid.SliceOfNDistinct(rapid.SampledFrom(running), 1, 4, rapid.ID[string]).Draw(t, "set")
		job := rapid.SampledFrom(pending).Draw(t, "job")
		all := c.Clone()
		for _, v := range set {
			if err := all.Evict(nil, v); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := all.Place(nil, job); !ok || err != nil {
			t.Skip("does not fit even with the whole set evicted")
		}
		landed := all.Domains(job, nil)
		some := c.Clone()
		for _, v := range set {
			if slices.ContainsFunc(c.Domains(v, nil), func(d string) bool { return slices.Contains(landed, d) }) {
				if err := some.Evict(nil, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		if ok, err := some.Place(nil, job); !ok || err != nil {
			t.Fatalf("%q fits on %q after evicting %q, but not after evicting only those meeting its domains: %v, %v", job, landed, set, ok, err)
		}
	})
}

// TestDomainsAllocations: no allocation when dst has room, for a small
// gang (sorted on the stack) and, once warm, for a large one.
func TestDomainsAllocations(t *testing.T) {
	sizes := []int{8, 4 * domainsOnStack}
	c, _ := gangCluster(t, 100, sizes)
	for _, size := range sizes {
		id := fmt.Sprint("gang-", size)
		dst := make([]string, 0, size)
		if n := len(c.Domains(id, dst)); n != size/4 {
			t.Fatalf("%s: %d domains, want %d", id, n, size/4)
		}
		if a := testing.AllocsPerRun(20, func() { dst = c.Domains(id, dst[:0]) }); a != 0 {
			t.Errorf("%s: %v allocations per call", id, a)
		}
	}
}

// gangCluster returns a cluster of 8-GPU nodes running, for each size, a
// gang "gang-<size>" of 2-GPU tasks placed by first fit (four per node),
// and its nodes.
func gangCluster(tb testing.TB, nodes int, sizes []int) (*Model, []Node) {
	tb.Helper()
	ns := make([]Node, nodes)
	for i := range ns {
		ns[i] = Node{Name: fmt.Sprint("node-", i), Capacity: Resources{GPU: 8}}
	}
	c, err := New(ns)
	if err != nil {
		tb.Fatal(err)
	}
	for _, size := range sizes {
		id := fmt.Sprint("gang-", size)
		if err := c.AddJob(nil, Job{ID: id, Tasks: slices.Repeat([]Resources{{GPU: 2}}, size)}); err != nil {
			tb.Fatal(err)
		}
		if ok, err := c.Place(nil, id); !ok || err != nil {
			tb.Fatalf("setup: %v %v", ok, err)
		}
	}
	return c, ns
}

// BenchmarkDomains measures Domains against the naive computation from
// Placement, for gangs of 8 and 80 tasks, four per 8-GPU node.
func BenchmarkDomains(b *testing.B) {
	sizes := []int{8, 80}
	c, nodes := gangCluster(b, 1000, sizes)
	for _, size := range sizes {
		id := fmt.Sprint("gang-", size)
		b.Run(fmt.Sprintf("tasks=%d/Domains", size), func(b *testing.B) {
			b.ReportAllocs()
			dst := make([]string, 0, size)
			for b.Loop() {
				dst = c.Domains(id, dst[:0])
			}
		})
		b.Run(fmt.Sprintf("tasks=%d/naive", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				naiveDomains(c, nodes, id)
			}
		})
	}
}
