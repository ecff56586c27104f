package alloc

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Config is one run of the experiment.
type Config struct {
	Policy Policy
	// Seed drives the arrival order, the inflation draws and the Random
	// policy (ties between scores are not random: see Run).
	Seed int64
	// Tune is the arrived GPU demand to reach, as a multiple of the
	// cluster's GPU capacity (the paper: 1.3).
	Tune float64
}

// Point is the state after one arrival: the GPU demand arrived so far
// and the GPU capacity allocated, in thousandths of a GPU.
type Point struct{ Arrived, Used int64 }

// Result is one run's outcome.
type Result struct {
	// Points has one entry per arrival, in order.
	Points []Point
	// CapacityMilli is the cluster's GPU capacity in thousandths.
	CapacityMilli  int64
	Placed, Failed int
}

// maxTune bounds Config.Tune (and so a run's length).
const maxTune = 10

// Run replays pods on nodes under cfg: the arrival sequence of Workload,
// each pod placed on arrival on a best-scoring fitting node or failed,
// nothing ever leaving. Among nodes with the best score the pod goes to
// the one whose name sorts first, as in the paper's simulator. Cost: see
// the package comment.
func Run(pods []trace.Request, nodes []trace.Node, cfg Config) (Result, error) {
	if len(pods) == 0 || len(nodes) == 0 {
		return Result{}, errors.New("alloc: no pods or no nodes")
	}
	if cfg.Policy < 0 || cfg.Policy >= numPolicies {
		return Result{}, fmt.Errorf("alloc: unknown policy %d", int(cfg.Policy))
	}
	if !(cfg.Tune > 0 && cfg.Tune <= maxTune) {
		return Result{}, fmt.Errorf("alloc: tune %v: want more than 0, at most %d", cfg.Tune, maxTune)
	}
	r := newReplay(pods, nodes, cfg)
	var capacity int64
	for _, n := range r.nodes {
		capacity += freeMilli(n.gpu)
	}
	if capacity == 0 {
		return Result{}, errors.New("alloc: the nodes have no GPU")
	}
	res := Result{CapacityMilli: capacity}
	order := Workload(pods, capacity, cfg.Tune, r.rng)
	res.Points = make([]Point, 0, len(order))
	var arrived, used int64
	for _, i := range order {
		p := &r.pods[i]
		arrived += p.totalMilli()
		if n := r.pick(p); n >= 0 {
			r.nodes[n].place(p, chooseGPUs(cfg.Policy, &r.nodes[n], p, r.target, r.scratch, r.rng))
			used += p.totalMilli()
			res.Placed++
		} else {
			res.Failed++
		}
		res.Points = append(res.Points, Point{arrived, used})
	}
	return res, nil
}

// replay is the state of one run.
type replay struct {
	pol     Policy
	pods    []pod
	shapes  int
	nodes   []node
	target  []Shape
	rng     *rand.Rand
	scratch []int32
	// cache holds each node's score per pod shape (node·shapes+shape),
	// valid while the node's version is unchanged.
	cache []cached
	// fit and scores are per-pod scratch: the fitting nodes, their scores.
	fit    []int
	scores []int64
}

type cached struct {
	version uint32
	score   int64
}

// newReplay prepares a run; its nodes are in name order (stable), so that
// the first of equal scores is the node whose name sorts first.
func newReplay(list []trace.Request, nodes []trace.Node, cfg Config) *replay {
	byName := slices.Clone(nodes)
	slices.SortStableFunc(byName, func(a, b trace.Node) int { return strings.Compare(a.Name, b.Name) })
	r := &replay{pol: cfg.Policy, nodes: newNodes(byName), target: TargetWorkload(list)}
	r.pods, r.shapes = internPods(list)
	r.rng = rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15))
	maxGPUs := 0
	for _, n := range r.nodes {
		maxGPUs = max(maxGPUs, len(n.gpu))
	}
	r.scratch = make([]int32, maxGPUs)
	if cfg.Policy != Random {
		r.cache = make([]cached, len(r.nodes)*r.shapes)
	}
	return r
}

// pick returns the node p goes to, -1 when it fits none: Random draws a
// fitting node uniformly; the others take the highest-scoring one, the
// first in name order among equal scores (the paper's simulator patches
// the kube-scheduler's selectHost so: see the package comment).
func (r *replay) pick(p *pod) int {
	r.fit = r.fit[:0]
	for i := range r.nodes {
		if fits(&r.nodes[i], p) {
			r.fit = append(r.fit, i)
		}
	}
	if len(r.fit) == 0 {
		return -1
	}
	if r.pol == Random {
		return r.fit[r.rng.IntN(len(r.fit))]
	}
	r.scores = r.scores[:0]
	for _, i := range r.fit {
		r.scores = append(r.scores, r.scoreOf(i, p))
	}
	if r.pol == BestFit {
		normalize(r.scores)
	}
	best := 0
	for k, s := range r.scores {
		if s > r.scores[best] {
			best = k
		}
	}
	return r.fit[best]
}

// scoreOf is p's score on node i, from the cache when node i has not
// changed since it was computed for p's shape.
func (r *replay) scoreOf(i int, p *pod) int64 {
	c := &r.cache[i*r.shapes+int(p.shape)]
	if n := &r.nodes[i]; c.version != n.version {
		c.version, c.score = n.version, score(r.pol, n, p, r.target, r.scratch)
	}
	return c.score
}
