package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/runtime"
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
	Jobs          int      `json:"jobs"`
	Unschedulable int      `json:"unschedulable_dropped"`
	Nodes         int      `json:"nodes"`
	GPUs          int64    `json:"gpus"`
	NodeStride    int      `json:"node_stride"`
	Speedup       float64  `json:"speedup"`
	Interval      string   `json:"cycle_interval"`
	Tail          string   `json:"tail"`
	Checkpoint    string   `json:"checkpoint,omitempty"`
	WindowStart   int64    `json:"window_start_s"`
	WindowEnd     int64    `json:"window_end_s"`
	Horizon       int64    `json:"horizon_s"`
	Queues        string   `json:"queues"`
	OfferedLoad   float64  `json:"offered_gpu_load"`
	Notes         []string `json:"notes,omitempty"`
}

// prepare applies the load knobs (node stride, arrival speed-up), drops jobs
// that fit on no node even when the cluster is empty, and derives the
// measurement window and horizon.
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
	w := &workload{jobs: jobs, nodes: nodes, seed: o.seed}
	for _, j := range jobs {
		w.failedStarts = w.failedStarts || j.ReadyAfter > j.Arrival
	}
	var err error
	if w.env, err = newEnv(jobs, o.teams, o.settings); err != nil {
		return nil, err
	}
	w.summary = Summary{
		Jobs: len(jobs), Unschedulable: dropped, Nodes: len(nodes), GPUs: c.gpuCap / 1000,
		NodeStride: o.nodeStride, Speedup: o.speedup, Interval: o.interval.String(), Tail: runtime.FormatDuration(o.tail),
		Queues: w.env.queueListing(),
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("simulate: no job fits on any node (%d dropped)", dropped)
	}
	if o.checkpoint > 0 {
		w.summary.Checkpoint = runtime.FormatDuration(o.checkpoint)
	}
	arrivals := make([]int64, len(jobs))
	for i, j := range jobs {
		arrivals[i] = j.Arrival
	}
	slices.Sort(arrivals)
	w.cfg = Config{
		Interval:    max(int64(o.interval/time.Second), 1),
		WindowStart: arrivals[len(arrivals)/100],
		WindowEnd:   arrivals[len(arrivals)-1],
		Buckets:     o.buckets,
		Checkpoint:  int64(o.checkpoint / time.Second),
	}
	if w.cfg.WindowEnd <= w.cfg.WindowStart {
		w.cfg.WindowEnd = w.cfg.WindowStart + 1
	}
	w.cfg.Horizon = arrivals[len(arrivals)-1] + int64(o.tail/time.Second)
	w.summary.WindowStart, w.summary.WindowEnd, w.summary.Horizon = w.cfg.WindowStart, w.cfg.WindowEnd, w.cfg.Horizon
	// Offered load: the utilisation the window would see if every job ran
	// from its arrival (an infinite cluster).
	var work float64
	for _, j := range jobs {
		a, b := max(j.Arrival, w.cfg.WindowStart), min(j.Arrival+j.Runtime, w.cfg.WindowEnd)
		if a < b {
			work += float64(j.GPUDemand()) * float64(b-a)
		}
	}
	if c.gpuCap > 0 {
		w.summary.OfferedLoad = work / float64(c.gpuCap) / float64(w.cfg.WindowEnd-w.cfg.WindowStart)
	}
	return w, nil
}

// simulateAll runs every named policy over the workload, in order.
func simulateAll(w *workload, names []string, prog *progress) ([]Result, error) {
	var results []Result
	for k, name := range names {
		pol, err := newPolicy(name, w)
		if err != nil {
			return nil, err
		}
		cfg := w.cfg
		cfg.Progress = func(done, total int64) { prog.update(fmt.Sprintf("%s (%d/%d)", name, k+1, len(names)), done, total) }
		s := newSim(cfg, w.jobs, w.nodes, pol, w.env)
		s.m.leaf = w.env.leafIndex
		s.run()
		results = append(results, s.m.result(name))
	}
	return results, nil
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

func newPolicy(name string, w *workload) (policy, error) {
	for _, p := range policyRegistry {
		if p.name == name {
			return p.build(w)
		}
	}
	return nil, fmt.Errorf("simulate: unknown policy %q", name)
}

// policyRegistry lists the compared variants in report order.
var policyRegistry = []struct {
	name              string
	about             string
	build             func(*workload) (policy, error)
	needsFailedStarts bool
}{
	{"priority", "plain priority preemption", func(*workload) (policy, error) { return priorityPolicy{}, nil }, false},
	{"minruntime", "priority + min-runtime protection (eligibility.MinRuntimeFilter, LCA)", func(w *workload) (policy, error) {
		p := newTenurePolicy(w)
		p.minRuntime = true
		return p, nil
	}, false},
	{"requeue", "minruntime + expected-runtime requeue (eligibility.Nominator, requeue.Engine, cooldown)", func(w *workload) (policy, error) {
		p := newTenurePolicy(w)
		p.minRuntime = true
		var err error
		p.rq, err = newRequeuePass(w, &p.filter, p.ej)
		return p, err
	}, false},
	{"timebased", "minruntime + time-based same-priority preemption (eligibility.PreemptionConfig, minAdmitDuration)", func(w *workload) (policy, error) {
		p := newTenurePolicy(w)
		p.minRuntime = true
		m := w.env.settings.MinAdmit
		p.tb = &eligibility.PreemptionConfig{Policy: eligibility.PreemptionLowerOrNewerEqualPriority, MinAdmitDuration: &m}
		if err := p.tb.Validate(); err != nil {
			return nil, fmt.Errorf("simulate: -min-admit: %w", err)
		}
		return p, nil
	}, false},
	{"backoff", "minruntime + requeue backoff after failed starts (requeue.BackoffConfig, RequeueState, QueueOrder)", func(w *workload) (policy, error) {
		p := newTenurePolicy(w)
		p.minRuntime = true
		p.bo = newBackoff(len(w.jobs), w.seed)
		return p, nil
	}, true},
}
