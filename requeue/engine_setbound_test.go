package requeue_test

import (
	"fmt"
	"testing"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// counted is the Cluster's Evict and Place, counting the Evict calls
// when evicts is not nil; the wrappers below embed it and add the hints
// they expose.
type counted struct {
	c      *cluster.Model
	evicts *int
}

func (m counted) Evict(j *requeue.Journal, id string) error {
	if m.evicts != nil {
		*m.evicts++
	}
	return m.c.Evict(j, id)
}

func (m counted) Place(j *requeue.Journal, id string) (bool, error) { return m.c.Place(j, id) }

// locSetBound is the Cluster with its locality hint and its set fit bound
// (requeue.SetFitBounder) alone.
type locSetBound struct{ counted }

func (m locSetBound) Domains(job string, dst []string) []string { return m.c.Domains(job, dst) }
func (m locSetBound) MayFitAfter(vs []string, job string) bool  { return m.c.MayFitAfter(vs, job) }

// noSetBound is the Cluster with every hint but the set fit bound.
type noSetBound struct{ counted }

func (m noSetBound) Shape(job string) (string, bool)             { return m.c.Shape(job) }
func (m noSetBound) MayFit(v string, jobs []string, fits []bool) { m.c.MayFit(v, jobs, fits) }
func (m noSetBound) Domains(job string, dst []string) []string   { return m.c.Domains(job, dst) }

// TestEngineSetBoundSettlesHopeless: with the set fit bound, the searches
// of contenders that fit nowhere evict nothing, and the pass decides
// every victim as it does without the bound, with fewer examinations.
func TestEngineSetBoundSettlesHopeless(t *testing.T) {
	base, in, cfg, now := hopelessWorld(t, 2000, 200)
	var results []requeue.EngineResult
	var evicts []int
	for _, model := range []func(*cluster.Model, *int) requeue.Model{
		func(c *cluster.Model, n *int) requeue.Model { return locSetBound{counted{c, n}} },
		func(c *cluster.Model, n *int) requeue.Model { return noSetBound{counted{c, n}} },
	} {
		n := 0
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(now, in, model(base.Clone(), &n))
		if err != nil {
			t.Fatal(err)
		}
		results, evicts = append(results, res), append(evicts, n)
	}
	if evicts[0] != 0 || evicts[1] == 0 {
		t.Fatalf("Evict calls with the set bound %d, without %d; want 0 and some", evicts[0], evicts[1])
	}
	if fmt.Sprint(results[0].Outcomes) != fmt.Sprint(results[1].Outcomes) {
		t.Fatalf("the set bound changed the outcomes:\n%v\n%v", results[0].Outcomes, results[1].Outcomes)
	}
	if results[0].Checks >= results[1].Checks/2 {
		t.Fatalf("%d examinations with the set bound, %d without", results[0].Checks, results[1].Checks)
	}
	t.Logf("examinations: %d with the set bound, %d without; %d evictions spared", results[0].Checks, results[1].Checks, evicts[1])
}

// TestEngineSetBoundKeepsGangs: the set bound does not settle a group that
// can make room: in the set world, every hint with it and without it
// serve the same contenders with the same sets.
func TestEngineSetBoundKeepsGangs(t *testing.T) {
	base, in, cfg, now := setWorld(t, 2000, 200)
	var out []string
	for _, model := range []func(*cluster.Model) requeue.Model{
		func(c *cluster.Model) requeue.Model { return c },
		func(c *cluster.Model) requeue.Model { return noSetBound{counted{c, nil}} },
	} {
		e, _ := requeue.NewEngine(cfg)
		res, err := e.Run(now, in, model(base.Clone()))
		if err != nil {
			t.Fatal(err)
		}
		if res.Sets < 100 {
			t.Fatalf("%d sets", res.Sets)
		}
		out = append(out, fmt.Sprint(res.Outcomes, res.FitWithoutEviction))
	}
	if out[0] != out[1] {
		t.Fatal("the set bound changed the result")
	}
}
