package sim

import (
	"cmp"
	"slices"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// maxWorkloadShapes bounds the target workload of the paper's
// fragmentation measure and of frag-gradient placement: the most common
// task shapes. In the openb trace the 16 most common task shapes cover
// 70.4% of its 8152 tasks, so the measure judges the free GPUs against
// most of the mix, not all of it (the rest spreads over many rare shapes).
const maxWorkloadShapes = 16

// WorkloadShapes returns the target workload of the fragmentation measure:
// the most common task shapes of jobs (CPU, memory, GPUs, share), each
// weighted by how many tasks have it, at most maxWorkloadShapes, most
// common first (ties in shape order, so the result is deterministic).
// Cost O(n log n).
func WorkloadShapes(jobs []trace.Job) []frag.Shape {
	count := map[frag.Task]int{}
	for i := range jobs {
		count[taskOf(&jobs[i])] += int(jobs[i].Tasks)
	}
	out := make([]frag.Shape, 0, len(count))
	for t, n := range count {
		out = append(out, frag.Shape{Task: t, Weight: float64(n)})
	}
	slices.SortFunc(out, func(a, b frag.Shape) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return cmpTask(a.Task, b.Task)
	})
	return out[:min(len(out), maxWorkloadShapes)]
}

func cmpTask(a, b frag.Task) int {
	return cmp.Or(cmp.Compare(a.CPU, b.CPU), cmp.Compare(a.Mem, b.Mem), cmp.Compare(a.GPUs, b.GPUs), cmp.Compare(a.Milli, b.Milli))
}

// taskOf is one task of j as package frag sees it.
func taskOf(j *trace.Job) frag.Task {
	return frag.Task{CPU: j.CPU, Mem: j.Mem, GPUs: j.GPUs, Milli: j.GPUMilli}
}

// nodeOf is node n's free capacity as package frag sees it (sharing its
// GPU slice; no copy).
func nodeOf(f *cluster.NodeFree) frag.Node { return frag.Node{CPU: f.CPU, Mem: f.Mem, GPU: f.GPU} }

// placeScored returns the node one task of job id goes to under a scored
// placement (best-fit or frag-gradient): the best-scoring of the unmasked
// nodes it fits and the nodes reserved for it, the lowest-numbered on a
// tie; -1 when none. Cost O(fitting nodes × the policy's score).
func (s *sim) placeScored(id int32) int {
	j := &s.jobs[id]
	t := taskOf(j)
	best, bestScore := -1, 0.0
	try := func(n int) {
		sc := frag.Score(s.cfg.Placement, nodeOf(&s.c.Free[n]), t, s.shapes)
		if best < 0 || sc < bestScore || (sc == bestScore && n < best) {
			best, bestScore = n, sc
		}
	}
	for n := s.c.NextFit(0, j); n >= 0; n = s.c.NextFit(n+1, j) {
		try(n)
	}
	for _, r := range s.openReserved(id) {
		if s.c.Free[r].Fits(j) {
			try(int(r))
		}
	}
	return best
}

// sampleFragmentation is called as the clock is about to move from now to
// t. When a sampling instant (a multiple of fragEvery) falls in [now, t),
// it measures the state, which holds over that stretch: the GPU capacity
// stranded (free, but on no node where a waiting task fits with that
// share) and the paper's fragmentation against the workload's shapes, and
// hands both to the metrics, which hold them until the next sample. The
// instants are a fixed grid, not the scheduling cycles, so cycles that
// change nothing do not move the samples. Cost O(nodes·(S+W)·G) for S
// distinct waiting shapes and W workload shapes, at most once per instant.
func (s *sim) sampleFragmentation(t int64) {
	if s.fragEvery <= 0 || s.nextFragSample >= t {
		return
	}
	at := max(s.nextFragSample, s.now)
	s.nextFragSample += (t - s.nextFragSample + s.fragEvery - 1) / s.fragEvery * s.fragEvery
	s.waitShapes = s.waitShapes[:0]
	if s.seenShapes == nil {
		s.seenShapes = map[frag.Task]struct{}{}
	}
	clear(s.seenShapes)
	for _, b := range s.q.nonEmpty {
		t := taskOfShape(s.q.buckets[b].key.sh)
		if _, dup := s.seenShapes[t]; !dup {
			s.seenShapes[t] = struct{}{}
			s.waitShapes = append(s.waitShapes, t)
		}
	}
	s.fragNodes = s.fragNodes[:0]
	for i := range s.c.Free {
		s.fragNodes = append(s.fragNodes, nodeOf(&s.c.Free[i]))
	}
	stranded, free := frag.Stranded(s.fragNodes, s.waitShapes)
	paper, _ := frag.ClusterFrag(s.fragNodes, s.shapes)
	s.m.fragmentation(at, float64(stranded), paper, float64(free))
}

// taskOfShape is a pending bucket's shape as a frag.Task.
func taskOfShape(sh shape) frag.Task {
	return frag.Task{CPU: sh.cpu, Mem: sh.mem, GPUs: sh.gpus, Milli: sh.milli}
}
