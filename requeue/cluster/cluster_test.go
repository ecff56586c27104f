package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/requeue"
)

func TestNewClusterReportsEveryProblem(t *testing.T) {
	_, err := New([]Node{
		{Name: "", Capacity: Resources{GPU: 1}},
		{Name: "a", Capacity: Resources{GPU: -1}},
		{Name: "b", Capacity: Resources{Memory: maxResource + 1}},
		{Name: "c"},
		{Name: "c"},
	})
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 4 {
		t.Fatalf("want 4 joined errors, got %v", err)
	}
	for _, e := range joined.Unwrap() {
		if !strings.HasPrefix(e.Error(), "cluster: ") {
			t.Errorf("message %q lacks the package prefix", e)
		}
	}
	c, err := New(nil) // an empty cluster is valid: nothing fits
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddJob(nil, Job{ID: "j", Tasks: []Resources{{}}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Place(nil, "j"); ok || err != nil {
		t.Fatalf("Place on an empty cluster = %v, %v", ok, err)
	}
}

func TestClusterAddJobValidation(t *testing.T) {
	c := gpuCluster(t, 1, fxJob{id: "dup", gpus: []int64{1}})
	bad := []Job{
		{ID: "", Tasks: []Resources{{}}},
		{ID: "dup", Tasks: []Resources{{}}},
		{ID: "none"},
		{ID: "neg", Tasks: []Resources{{GPU: -1}}},
		{ID: "huge", Tasks: []Resources{{MilliCPU: maxResource + 1}}},
		{ID: "min", Tasks: []Resources{{}}, MinTasks: 2},
		{ID: "min", Tasks: []Resources{{}}, MinTasks: -1},
	}
	for _, j := range bad {
		if err := c.AddJob(nil, j); err == nil {
			t.Errorf("AddJob(%+v) accepted", j)
		}
	}
	if d := cmp.Diff([]string{"dup"}, c.jobIDs()); d != "" {
		t.Errorf("rejected jobs registered (-want +got):\n%s", d)
	}
}

func TestClusterPlaceFirstFitAndGang(t *testing.T) {
	// n0: 2 GPUs free, n1: 4, n2: 4.
	c := gpuCluster(t, 3, fxJob{id: "r", gpus: []int64{2}, running: true})
	add := func(id string, min int, gpus ...int64) {
		var tasks []Resources
		for _, g := range gpus {
			tasks = append(tasks, Resources{GPU: g})
		}
		if err := c.AddJob(nil, Job{ID: id, Tasks: tasks, MinTasks: min}); err != nil {
			t.Fatal(err)
		}
	}
	add("a", 0, 3, 1, 1)    // 3 -> n1 (n0 too small), 1 -> n0, 1 -> n0
	add("gang", 0, 4, 4)    // needs 8 GPUs on whole nodes: n2 + nothing -> fails
	add("elastic", 1, 4, 4) // min 1: 4 -> n2, second task pending
	add("exact", 0, 1)      // takes n1's last GPU
	for _, step := range []struct {
		id   string
		ok   bool
		want []string
	}{
		{"a", true, []string{"n1", "n0", "n0"}},
		{"gang", false, []string{"", ""}},
		{"elastic", true, []string{"n2", ""}},
		{"exact", true, []string{"n1"}},
	} {
		ok, err := c.Place(nil, step.id)
		if err != nil || ok != step.ok {
			t.Fatalf("Place(%s) = %v, %v; want %v", step.id, ok, err, step.ok)
		}
		if d := cmp.Diff(step.want, c.placement(step.id)); d != "" {
			t.Errorf("placement(%s) (-want +got):\n%s", step.id, d)
		}
	}
	if got := c.free; got != (Resources{}) {
		t.Errorf("free total = %v, want all used", got)
	}
	if _, err := c.Place(nil, "a"); err == nil {
		t.Error("placing a running job: no error")
	}
	if _, err := c.Place(nil, "nope"); err == nil {
		t.Error("placing an unknown job: no error")
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

func TestClusterBind(t *testing.T) {
	c := gpuCluster(t, 2, fxJob{id: "j", gpus: []int64{3, 3}}, fxJob{id: "k", gpus: []int64{2, 2}})
	before := c.Snapshot()
	for _, nodes := range [][]string{
		{"n0"},             // count mismatch
		{"n0", "nx"},       // unknown node
		{"n0", "n0"},       // second task does not fit
		{"", "n1"},         // below the gang minimum (all tasks)
		{"n0", "n1", "n1"}, // count mismatch
	} {
		if err := c.Bind(nil, "j", nodes); err == nil {
			t.Errorf("Bind(j, %q) accepted", nodes)
		}
		if !snapshotsEqual(c.Snapshot(), before) {
			t.Fatalf("failed Bind(j, %q) changed the cluster", nodes)
		}
	}
	if err := c.Bind(nil, "j", []string{"n1", "n0"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Bind(nil, "j", []string{"n1", "n0"}); err == nil {
		t.Error("Bind of a running job accepted")
	}
	if err := c.Bind(nil, "nope", nil); err == nil {
		t.Error("Bind of an unknown job accepted")
	}
	if d := cmp.Diff([]string{"n1", "n0"}, c.placement("j")); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if free, _ := c.nodeFree("n0"); free != (Resources{GPU: 1}) {
		t.Errorf("Free(n0) = %v", free)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

func TestClusterRemoveAndEvict(t *testing.T) {
	var j requeue.Journal
	c := gpuCluster(t, 1, fxJob{id: "r", gpus: []int64{4}, running: true})
	before := c.Snapshot()
	cp := j.Checkpoint()
	if err := c.Evict(&j, "r"); err != nil {
		t.Fatal(err)
	}
	if err := c.Evict(&j, "r"); err == nil {
		t.Error("evicting a pending job: no error")
	}
	if err := c.removeJob(&j, "r"); err != nil {
		t.Fatal(err)
	}
	if c.has("r") || c.removeJob(&j, "r") == nil || c.Evict(&j, "r") == nil {
		t.Error("removed job still visible")
	}
	if err := c.AddJob(&j, Job{ID: "r", Tasks: []Resources{{GPU: 1}}}); err != nil {
		t.Fatal(err) // the ID is free again
	}
	if err := j.Rollback(cp); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, c.Snapshot()); d != "" {
		t.Fatalf("rollback (-want +got):\n%s", d)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
}

func TestResources(t *testing.T) {
	a, b := Resources{1500, 2048, 1}, Resources{500, 48, 1}
	if got := a.add(b).sub(b); got != a {
		t.Errorf("Add/Sub = %v", got)
	}
	if !b.fits(a) || a.fits(b) || !a.fits(a) {
		t.Error("fits boundary wrong")
	}
	if got := a.String(); got != "cpu=1500m mem=2048 gpu=1" {
		t.Errorf("String = %q", got)
	}
	if !(Resources{GPU: -1}).negative() || (Resources{}).negative() {
		t.Error("Negative wrong")
	}
}

func TestClusterZeroAndNil(t *testing.T) {
	var c Model // no nodes: jobs can be registered, nothing fits
	if err := c.AddJob(nil, Job{ID: "j", Tasks: []Resources{{}}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Place(nil, "j"); ok || err != nil {
		t.Fatalf("Place on the zero Cluster = %v, %v; want false, nil", ok, err)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	// A nil *Cluster is a non-nil Model: the engine reports its errors.
	var nilc *Model
	if _, err := nilc.Place(nil, "j"); err == nil || !strings.HasPrefix(err.Error(), "cluster: ") {
		t.Errorf("nil Place error = %v", err)
	}
	res, err := (&requeue.Engine{}).Run(t0, requeue.EngineInput{
		Nominations: []requeue.VictimNomination{{Job: "v", Nominator: "x"}},
		Victims:     []requeue.Victim{{ID: "v"}},
		Contenders:  []requeue.Contender{{ID: "p", Priority: 1}},
	}, nilc)
	// The contender is first tried without any eviction; the nil model's
	// Place error rules it out, so nothing is evicted for it.
	if err != nil || len(res.Outcomes) != 1 || res.Outcomes[0].Kind != requeue.OutcomeKept ||
		len(res.ContenderProblems) != 1 || res.ContenderProblems[0].Contender != "p" {
		t.Fatalf("Run on a nil *Cluster = %+v, %v; want v kept and p's Place error reported", res, err)
	}
	if err := nilc.Evict(nil, "v"); err == nil || !strings.HasPrefix(err.Error(), "cluster: ") {
		t.Errorf("nil Evict error = %v", err)
	}
}

// TestClusterSlotsFollowLiveJobs: remove+add cycles at a constant live count
// keep the job storage at the live count (with and without a journal), a
// rollback over many cycles restores the cluster exactly, and the storage
// shrinks when most jobs leave. Slots are counted, not heap bytes.
func TestClusterSlotsFollowLiveJobs(t *testing.T) {
	const live, cycles = 1000, 20000
	bound := func(c *Model, what string) {
		t.Helper()
		if err := c.check(); err != nil { // includes cap <= max(64, 4·len)
			t.Fatalf("%s: %v", what, err)
		}
	}
	ch := newChurner(t, live)
	for range cycles {
		ch.cycle(t, nil)
	}
	if len(ch.c.jobs) != live || cap(ch.c.jobs) > 4*live {
		t.Fatalf("after %d cycles: %d slots, room for %d; want %d, at most %d", cycles, len(ch.c.jobs), cap(ch.c.jobs), live, 4*live)
	}
	bound(ch.c, "nil journal")

	var j requeue.Journal
	before := ch.c.Snapshot()
	cp := j.Checkpoint()
	for i := range cycles {
		ch.cycle(t, &j)
		if i%1000 == 0 && (len(ch.c.jobs) != live || cap(ch.c.jobs) > 4*live) {
			t.Fatalf("journaled cycle %d: %d slots, room for %d", i, len(ch.c.jobs), cap(ch.c.jobs))
		}
	}
	if err := j.Rollback(cp); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, ch.c.Snapshot()); d != "" {
		t.Fatalf("rollback of %d cycles (-want +got):\n%s", cycles, d)
	}
	bound(ch.c, "after rollback")

	// Most jobs leave: the storage shrinks with them.
	for _, id := range ch.c.jobIDs()[10:] {
		if err := ch.c.removeJob(nil, id); err != nil {
			t.Fatal(err)
		}
	}
	if len(ch.c.jobs) != 10 || cap(ch.c.jobs) > clusterMinSlots {
		t.Fatalf("10 jobs left: %d slots, room for %d; want 10, at most %d", len(ch.c.jobs), cap(ch.c.jobs), clusterMinSlots)
	}
	bound(ch.c, "after shrinking")
}
