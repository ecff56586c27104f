package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// synthLoad is the offered GPU load of the synthetic workload (1 = the
// cluster's GPUs exactly busy on average, were every job placed the moment
// it arrives). It is below 1 so that a policy that wastes little can keep
// up: above 1 the backlog grows without end whatever the policy does, the
// run is cut off with thousands of jobs unfinished, and the waits measure
// the cut-off rather than the policy. It is not far below 1, because
// whole-node jobs and gangs fragment the cluster and evictions waste GPU
// time, so the cluster is busy: the report's waits still differ widely
// between policies.
const synthLoad = 0.9

// synthHigh is the fraction of synthetic jobs that are High within their
// class: a team's urgent jobs, which may preempt its other jobs of the
// class within its own team queue (the preempt action, governed by the
// preempt min-runtime).
const synthHigh = 0.2

// synthJobsPerBlock is how many synthetic jobs one block of 12 nodes
// serves: the cluster grows with the job count, so the offered load and the
// span of the arrivals stay the same whatever -jobs is.
const synthJobsPerBlock = 2000

// Synthesize generates a deterministic workload from seed: a cluster of
// blocks of 12 nodes (8 with 8 GPUs, 4 with 2), one block per 2,000 jobs,
// and n jobs with Poisson arrivals at an offered GPU load of synthLoad.
// Jobs are 50% LS, 10% Burstable, 40% BE; a fifth of each class is High
// (synthHigh). Shapes: 55% one whole GPU, 20% a
// share of one (250 or 500 thousandths), 12% 2 or 4 GPUs, 5% 8 GPUs (a whole
// node), 4% gangs of 2 or 4 whole-node tasks that must run together, and 4%
// elastic jobs of 4 or 8 one-GPU tasks that can run on half of them
// (MinTasks = Tasks/2). Runtimes (with every task running) are log-normal
// with a median of 20 minutes (σ = 1.2), clamped to 1 minute..2 days. Team
// queues are assigned by the same name hash as trace jobs.
//
// With failRate > 0, that fraction of jobs has a broken dependency for an
// exponentially distributed time (mean 30 minutes) after its arrival: a
// start before then fails (see Job.ReadyAfter).
func Synthesize(seed int64, n, teams int, failRate float64) ([]Job, []Node) {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7e4e5e))
	nodes := synthNodes(max(1, (n+synthJobsPerBlock/2)/synthJobsPerBlock))
	capMilli := 0.0
	for _, nd := range nodes {
		capMilli += float64(nd.GPUs) * 1000
	}
	jobs := make([]Job, n)
	var work float64
	for i := range jobs {
		jobs[i] = synthJob(r, i, teams)
		work += float64(jobs[i].GPUDemand()) * float64(jobs[i].Runtime)
	}
	// Poisson arrivals: mean gap chosen so that work / (capacity × span) = synthLoad.
	meanGap := work / float64(n) / (capMilli * synthLoad)
	t := 0.0
	for i := range jobs {
		jobs[i].Arrival = int64(t)
		t += r.ExpFloat64() * meanGap
		if failRate > 0 && r.Float64() < failRate {
			jobs[i].ReadyAfter = jobs[i].Arrival + 1 + int64(r.ExpFloat64()*1800)
		}
	}
	return jobs, nodes
}

// synthNodes is the synthetic cluster: per block, eight 8-GPU nodes and
// four 2-GPU nodes.
func synthNodes(blocks int) []Node {
	var nodes []Node
	for i := range 12 * blocks {
		g := int32(8)
		if i%12 >= 8 {
			g = 2
		}
		nodes = append(nodes, Node{Name: fmt.Sprintf("syn-node-%05d", i), CPU: 96000, Mem: 786432, GPUs: g, Model: "synthetic"})
	}
	return nodes
}

// synthJob draws job i: its class, shape, runtime and whether it is High
// (the arrival is drawn later, once the total work is known).
func synthJob(r *rand.Rand, i, teams int) Job {
	j := Job{Name: fmt.Sprintf("syn-%07d", i)}
	switch x := r.Float64(); {
	case x < 0.5:
		j.Class = ClassLS
	case x < 0.6:
		j.Class = ClassBurstable
	default:
		j.Class = ClassBE
	}
	j.GPUs, j.GPUMilli, j.Tasks = 1, 1000, 1
	switch x := r.Float64(); {
	case x < 0.55:
	case x < 0.75:
		j.GPUMilli = int32(250 * (1 + r.IntN(2)))
	case x < 0.87:
		j.GPUs = int32(2 << r.IntN(2))
	case x < 0.92:
		j.GPUs = 8
	case x < 0.96:
		j.GPUs, j.Tasks = 8, int32(2<<r.IntN(2))
	default:
		j.Tasks = int32(4 << r.IntN(2))
	}
	j.MinTasks = j.Tasks
	if j.Tasks > 1 && j.GPUs == 1 {
		j.MinTasks = j.Tasks / 2
	}
	j.CPU = 4000 * int64(j.GPUs)
	j.Mem = 16384 * int64(j.GPUs)
	rt := 1200 * math.Exp(1.2*r.NormFloat64())
	j.Runtime = int64(min(max(rt, 60), 2*86400))
	j.Team = teamOf(j.Name, teams)
	j.High = r.Float64() < synthHigh
	j.Phase = "Succeeded"
	return j
}
