package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/replica"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// Workload is a prepared input: the jobs and nodes to simulate, the shared
// environment and the simulator configuration.
type Workload struct {
	Jobs    []trace.Job
	Nodes   []trace.Node
	Env     *Env
	Cfg     Config
	Summary report.Summary
	Seed    int64
	// FailedStarts: some job's early starts fail (Job.ReadyAfter).
	FailedStarts bool
	// Shapes is the target workload of the fragmentation measure and of
	// frag-gradient placement (WorkloadShapes of Jobs).
	Shapes []frag.Shape
	// RecordJobs: each run keeps its per-job events (Result.Jobs), for
	// -jobs-out.
	RecordJobs bool
}

// Simulate runs one policy over the workload.
func Simulate(w *Workload, name string, progress func(done, total int64)) (report.Result, error) {
	pol, err := newPolicy(name, w)
	if err != nil {
		return report.Result{}, err
	}
	cfg := w.Cfg
	cfg.Progress = progress
	s := newSim(cfg, w.Jobs, w.Nodes, pol, w.Env)
	s.shapes = w.Shapes
	if w.RecordJobs {
		s.rec = &recorder{policy: name, nodes: w.Nodes}
	}
	s.run()
	r := s.m.result(s)
	if s.rec != nil {
		r.Jobs = s.rec.events
	}
	return r, nil
}

// ApplicablePolicies lists the policies that apply to an input, in report
// order: backoff only when the input has failed starts.
func ApplicablePolicies(failedStarts bool) []string {
	var names []string
	for _, p := range policies.Registry {
		if failedStarts || !p.NeedsFailedStarts {
			names = append(names, p.Name)
		}
	}
	return names
}

// PolicyNeedsFailedStarts reports whether the named policy simulates only
// an input with failed starts (backoff).
func PolicyNeedsFailedStarts(name string) bool {
	for _, p := range policies.Registry {
		if p.Name == name {
			return p.NeedsFailedStarts
		}
	}
	return false
}

// PolicyNames lists the policies this build can simulate, in report order.
func PolicyNames() []string {
	names := make([]string, len(policies.Registry))
	for i, p := range policies.Registry {
		names[i] = p.Name
	}
	return names
}

// Load is what Prepare needs besides the jobs and nodes: the load knobs,
// the run's timing and the policy settings.
type Load struct {
	NodeStride int     // keep one node in NodeStride, a stratified sample (replica.Sample)
	NodeSeed   uint64  // the sample's draw (a trace replicate's; 0: the evenly spaced default)
	Speedup    float64 // divide inter-arrival times by this
	ScaleMix   bool    // thin the jobs that could not finish even alone
	Teams      int     // team queues under each class
	// Interval between scheduling cycles, Tail after the last arrival,
	// Checkpoint interval of work (0: none); CheckpointSave the time each
	// checkpoint takes to write, CheckpointRestore the time a restarted
	// job takes to load its last one.
	Interval, Tail, Checkpoint        time.Duration
	CheckpointSave, CheckpointRestore time.Duration
	Buckets                           int // samples in the time series
	Seed                              int64
	Settings                          Settings
	Placement                         frag.Policy
}

// Prepare applies the load knobs (node stride, arrival speed-up), replays
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
func Prepare(jobs []trace.Job, nodes []trace.Node, o Load) (*Workload, error) {
	nodes, jobs = scaleLoad(jobs, nodes, o)
	c := cluster.New(nodes)
	jobs, dropped := schedulable(c, jobs)
	if len(jobs) == 0 {
		return nil, fmt.Errorf("simulate: no job fits on any node (%d dropped)", dropped)
	}
	cfg := timing(jobs, o)
	sum := report.Summary{Unschedulable: dropped, Nodes: len(nodes), GPUs: c.GPUCap / 1000, NodeStride: o.NodeStride, Speedup: o.Speedup}
	// Pods alive at the end of the trace run past the end of the replay:
	// their real runtime is unknown, and they were still running.
	for i := range jobs {
		if jobs[i].Alive {
			jobs[i].Runtime = max(jobs[i].Runtime, cfg.Horizon-jobs[i].Arrival+1)
		}
	}
	// Writing checkpoints lengthens every run (before thinning: it can
	// make a job infeasible).
	for i := range jobs {
		jobs[i].Runtime = CheckpointRuntime(jobs[i].Runtime, int64(o.Checkpoint/time.Second), int64(o.CheckpointSave/time.Second))
	}
	jobs = thin(jobs, cfg.Horizon, o, &sum)
	w := &Workload{Jobs: jobs, Nodes: nodes, Seed: o.Seed, Cfg: cfg, Shapes: WorkloadShapes(jobs)}
	for _, j := range jobs {
		w.FailedStarts = w.FailedStarts || j.ReadyAfter > j.Arrival
	}
	var err error
	if w.Env, err = NewEnv(jobs, o.Teams, o.Settings); err != nil {
		return nil, err
	}
	sum.Jobs = len(jobs)
	sum.Queues = w.Env.QueueListing()
	sum.WindowStart, sum.WindowEnd, sum.Horizon = cfg.WindowStart, cfg.WindowEnd, cfg.Horizon
	sum.OfferedLoad = offeredLoad(jobs, c.GPUCap, cfg)
	w.Summary = sum
	return w, nil
}

// scaleLoad keeps one node in NodeStride, a sample stratified by node type
// (replica.Sample, drawn with NodeSeed), and divides the inter-arrival
// times by Speedup; jobs is copied, not changed.
func scaleLoad(jobs []trace.Job, nodes []trace.Node, o Load) ([]trace.Node, []trace.Job) {
	kept := nodes
	if o.NodeStride > 1 {
		strata := make([]string, len(nodes))
		for i, n := range nodes {
			strata[i] = replica.Stratum(n.Model, n.GPUs, n.CPU, n.Mem)
		}
		kept = nil
		for _, i := range replica.Sample(strata, o.NodeStride, replica.NodeRand(o.NodeSeed)) {
			kept = append(kept, nodes[i])
		}
	}
	jobs = slices.Clone(jobs)
	first := jobs[0].Arrival
	for _, j := range jobs {
		first = min(first, j.Arrival)
	}
	if o.Speedup != 1 {
		for i := range jobs {
			jobs[i].Arrival = first + int64(float64(jobs[i].Arrival-first)/o.Speedup)
		}
	}
	return kept, jobs
}

// schedulable drops, in place, the jobs that fit on no node of the empty
// cluster c, and counts them.
func schedulable(c *cluster.State, jobs []trace.Job) ([]trace.Job, int) {
	out := jobs[:0]
	dropped := 0
	for _, j := range jobs {
		if c.Schedulable(&j) {
			out = append(out, j)
		} else {
			dropped++
		}
	}
	return out, dropped
}

// timing derives the simulator's configuration from the arrivals: the
// measurement window (from the 1st percentile of arrivals to the last) and
// the horizon (the last arrival plus the tail).
func timing(jobs []trace.Job, o Load) Config {
	arrivals := make([]int64, len(jobs))
	for i, j := range jobs {
		arrivals[i] = j.Arrival
	}
	slices.Sort(arrivals)
	cfg := Config{
		Interval:     max(int64(o.Interval/time.Second), 1),
		WindowStart:  arrivals[len(arrivals)/100],
		WindowEnd:    arrivals[len(arrivals)-1],
		Buckets:      o.Buckets,
		Checkpoint:   checkpointPeriod(o),
		ThrashWindow: int64(o.Settings.ThrashWindow / time.Second),
		Placement:    o.Placement,
	}
	if cfg.Checkpoint > 0 {
		cfg.Restore = int64(o.CheckpointRestore / time.Second)
		cfg.Save = int64(o.CheckpointSave / time.Second)
	}
	if cfg.WindowEnd <= cfg.WindowStart {
		cfg.WindowEnd = cfg.WindowStart + 1
	}
	cfg.Horizon = arrivals[len(arrivals)-1] + int64(o.Tail/time.Second)
	return cfg
}

// thin keeps one in NodeStride of the jobs that could not finish before
// horizon even alone (every NodeStride-th by arrival) when ScaleMix is
// set, and counts in sum the jobs thinned, the infeasible ones kept, the
// gangs and the elastic jobs.
func thin(jobs []trace.Job, horizon int64, o Load, sum *report.Summary) []trace.Job {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Arrival, jobs[b].Arrival) })
	keep := make([]bool, len(jobs))
	k := 0
	for _, i := range order {
		keep[i] = true
		if jobs[i].Arrival+jobs[i].Runtime > horizon {
			if o.ScaleMix && k%o.NodeStride != 0 {
				keep[i] = false
				sum.InfeasibleThinned++
			}
			k++
		}
	}
	out := jobs[:0]
	for i, j := range jobs {
		if !keep[i] {
			continue
		}
		out = append(out, j)
		if j.Arrival+j.Runtime > horizon {
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
	return out
}

// offeredLoad is the utilisation the window would see if every job ran
// from its arrival (an infinite cluster).
func offeredLoad(jobs []trace.Job, gpuCap int64, cfg Config) float64 {
	var work float64
	for _, j := range jobs {
		a, b := max(j.Arrival, cfg.WindowStart), min(j.Arrival+j.Runtime, cfg.WindowEnd)
		if a < b {
			work += float64(j.GPUDemand()) * float64(b-a)
		}
	}
	if gpuCap <= 0 {
		return 0
	}
	return work / float64(gpuCap) / float64(cfg.WindowEnd-cfg.WindowStart)
}

// CheckpointRuntime is the wall time a job needing runtime seconds of work
// takes when it writes a checkpoint after every cp seconds of work, each
// taking save seconds (none after the last stretch: the job is done). The
// simulator then sees checkpoints every cp+save seconds of run time, and
// a run evicted during a save loses that stretch. 0 cp or save: runtime.
func CheckpointRuntime(runtime, cp, save int64) int64 {
	if cp <= 0 || save <= 0 || runtime <= 0 {
		return runtime
	}
	return runtime + (runtime-1)/cp*save
}

// checkpointPeriod is the run time between saved states: the work between
// checkpoints plus the time to write one; 0 without checkpoints.
func checkpointPeriod(o Load) int64 {
	if o.Checkpoint <= 0 {
		return 0
	}
	return int64((o.Checkpoint + o.CheckpointSave) / time.Second)
}
