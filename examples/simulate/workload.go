package main

import (
	"fmt"
	"slices"
	"time"
)

// workload is a prepared input: the jobs and nodes to simulate, the shared
// environment and the simulator configuration.
type workload struct {
	jobs    []Job
	nodes   []Node
	env     *env
	cfg     Config
	summary Summary
	seed    int64
	// failedStarts: some job's early starts fail (Job.ReadyAfter).
	failedStarts bool
}

// Summary describes the simulated workload in the report.
type Summary struct {
	Jobs          int     `json:"jobs"`
	Unschedulable int     `json:"unschedulable_dropped"`
	Nodes         int     `json:"nodes"`
	GPUs          int64   `json:"gpus"`
	NodeStride    int     `json:"node_stride"`
	Speedup       float64 `json:"speedup"`
	// Infeasible counts the jobs simulated that could not finish before the
	// horizon even if each ran alone from its arrival (Alive of them were
	// still running when the trace ended); InfeasibleThinned the jobs of
	// that kind left out by -scale-mix.
	Infeasible        int     `json:"infeasible"`
	Alive             int     `json:"alive_at_trace_end"`
	InfeasibleThinned int     `json:"infeasible_thinned,omitempty"`
	Gangs             int     `json:"gangs,omitempty"`
	Elastic           int     `json:"elastic,omitempty"`
	WindowStart       int64   `json:"window_start_s"`
	WindowEnd         int64   `json:"window_end_s"`
	Horizon           int64   `json:"horizon_s"`
	Queues            string  `json:"queues"`
	OfferedLoad       float64 `json:"offered_gpu_load"`
}

// prepare applies the load knobs (node stride, arrival speed-up), replays
// pods alive at the end of the trace until the end of the run, drops jobs
// that fit on no node even when the cluster is empty, thins the jobs that
// could not finish even alone (-scale-mix), and derives the measurement
// window and horizon.
//
// Why thin: shrinking the cluster k times while keeping every job makes
// the long-running part of the mix k times larger relative to the cluster.
// On the embedded trace at one node in 40, 51 jobs that could not finish
// before the end even alone held 57 of the 147 GPUs (in the real cluster,
// 1% of its GPUs) and caused a third to a half of every policy's lost
// GPU-hours. Keeping one in k of them (every k-th by arrival) gives them
// the same share of the scaled cluster as of the real one; the jobs that
// can finish are all kept, arriving faster (-speedup) to load the cluster.
func prepare(jobs []Job, nodes []Node, o options) (*workload, error) {
	var kept []Node
	for i := 0; i < len(nodes); i += o.nodeStride {
		kept = append(kept, nodes[i])
	}
	nodes = kept
	jobs = slices.Clone(jobs)
	first := jobs[0].Arrival
	for _, j := range jobs {
		first = min(first, j.Arrival)
	}
	if o.speedup != 1 {
		for i := range jobs {
			jobs[i].Arrival = first + int64(float64(jobs[i].Arrival-first)/o.speedup)
		}
	}
	c := newCluster(nodes)
	out := jobs[:0]
	dropped := 0
	for _, j := range jobs {
		if c.schedulable(&j) {
			out = append(out, j)
		} else {
			dropped++
		}
	}
	jobs = out
	if len(jobs) == 0 {
		return nil, fmt.Errorf("simulate: no job fits on any node (%d dropped)", dropped)
	}
	arrivals := make([]int64, len(jobs))
	for i, j := range jobs {
		arrivals[i] = j.Arrival
	}
	slices.Sort(arrivals)
	cfg := Config{
		Interval:     max(int64(o.interval/time.Second), 1),
		WindowStart:  arrivals[len(arrivals)/100],
		WindowEnd:    arrivals[len(arrivals)-1],
		Buckets:      o.buckets,
		Checkpoint:   int64(o.checkpoint / time.Second),
		ThrashWindow: int64(o.settings.ThrashWindow / time.Second),
	}
	if cfg.WindowEnd <= cfg.WindowStart {
		cfg.WindowEnd = cfg.WindowStart + 1
	}
	cfg.Horizon = arrivals[len(arrivals)-1] + int64(o.tail/time.Second)
	sum := Summary{Unschedulable: dropped, Nodes: len(nodes), GPUs: c.gpuCap / 1000, NodeStride: o.nodeStride, Speedup: o.speedup}

	// Pods alive at the end of the trace run past the end of the replay:
	// their real runtime is unknown, and they were still running.
	for i := range jobs {
		if jobs[i].Alive {
			jobs[i].Runtime = max(jobs[i].Runtime, cfg.Horizon-jobs[i].Arrival+1)
		}
	}
	// Thin the jobs that could not finish even alone.
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpInt64(jobs[a].Arrival, jobs[b].Arrival) })
	keep := make([]bool, len(jobs))
	k := 0
	for _, i := range order {
		keep[i] = true
		if jobs[i].Arrival+jobs[i].Runtime > cfg.Horizon {
			if o.scaleMix && k%o.nodeStride != 0 {
				keep[i] = false
				sum.InfeasibleThinned++
			}
			k++
		}
	}
	out = jobs[:0]
	for i, j := range jobs {
		if !keep[i] {
			continue
		}
		out = append(out, j)
		if j.Arrival+j.Runtime > cfg.Horizon {
			sum.Infeasible++
			if j.Alive {
				sum.Alive++
			}
		}
		if j.Tasks > 1 {
			if j.MinTasks < j.Tasks {
				sum.Elastic++
			} else {
				sum.Gangs++
			}
		}
	}
	jobs = out

	w := &workload{jobs: jobs, nodes: nodes, seed: o.seed, cfg: cfg}
	for _, j := range jobs {
		w.failedStarts = w.failedStarts || j.ReadyAfter > j.Arrival
	}
	var err error
	if w.env, err = newEnv(jobs, o.teams, o.settings); err != nil {
		return nil, err
	}
	sum.Jobs = len(jobs)
	sum.Queues = w.env.queueListing()
	sum.WindowStart, sum.WindowEnd, sum.Horizon = cfg.WindowStart, cfg.WindowEnd, cfg.Horizon
	// Offered load: the utilisation the window would see if every job ran
	// from its arrival (an infinite cluster).
	var work float64
	for _, j := range jobs {
		a, b := max(j.Arrival, cfg.WindowStart), min(j.Arrival+j.Runtime, cfg.WindowEnd)
		if a < b {
			work += float64(j.GPUDemand()) * float64(b-a)
		}
	}
	if c.gpuCap > 0 {
		sum.OfferedLoad = work / float64(c.gpuCap) / float64(cfg.WindowEnd-cfg.WindowStart)
	}
	w.summary = sum
	return w, nil
}

// simulate runs one policy over the workload.
func simulate(w *workload, name string, progress func(done, total int64)) (Result, error) {
	pol, err := newPolicy(name, w)
	if err != nil {
		return Result{}, err
	}
	cfg := w.cfg
	cfg.Progress = progress
	s := newSim(cfg, w.jobs, w.nodes, pol, w.env)
	s.run()
	return s.m.result(s), nil
}

// applicablePolicies lists the policies that apply to an input, in report
// order: backoff only when the input has failed starts.
func applicablePolicies(failedStarts bool) []string {
	var names []string
	for _, p := range policyRegistry {
		if failedStarts || !p.needsFailedStarts {
			names = append(names, p.name)
		}
	}
	return names
}

func policyNeedsFailedStarts(name string) bool {
	for _, p := range policyRegistry {
		if p.name == name {
			return p.needsFailedStarts
		}
	}
	return false
}

// policyNames lists the policies this build can simulate, in report order.
func policyNames() []string {
	names := make([]string, len(policyRegistry))
	for i, p := range policyRegistry {
		names[i] = p.name
	}
	return names
}

func parsePolicies(s string) ([]string, error) {
	var out []string
	for _, n := range splitList(s) {
		if !slices.Contains(policyNames(), n) {
			return nil, fmt.Errorf("simulate: -policies: unknown policy %q (have %v)", n, policyNames())
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("simulate: -policies: %q listed twice", n)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("simulate: -policies: empty (have %v)", policyNames())
	}
	return out, nil
}
