package main

import (
	"fmt"
	"strings"

	"github.com/tenurepolicy/tenure/runtime"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// experiment is what one invocation simulates: every point of the sweep
// grid (one point without -sweep) with every seed, each with every policy.
// A trace is read once; each grid point and seed gets its own workload,
// prepared inside the simulations (lazyWork), so memory follows the
// simulations running at once. The first is prepared before: it says
// which policies apply and fills the header.
type experiment struct {
	o     options
	cases []sweepCase
	seeds []int64
	// The trace, read once (nil for a synthetic workload).
	traceJobs   []trace.Job
	traceNodes  []trace.Node
	traceSource string
	// first is the first point's workload until tasks hands it over.
	first *sim.Workload
}

// newExperiment expands o's sweep into its grid, checking every point.
func newExperiment(o options) (*experiment, error) {
	x := &experiment{o: o, cases: []sweepCase{{opts: o}}, seeds: seedList(o.seed, o.runs)}
	if len(o.sweeps) > 0 {
		var err error
		if x.cases, err = sweepCases(o, o.sweeps); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// prepare prepares the workload of grid point c with seed s, and names its
// input.
func (x *experiment) prepare(c, s int) (*sim.Workload, string, error) {
	oc := x.cases[c].opts
	oc.seed = x.seeds[s]
	jobs, nodes, src := x.traceJobs, x.traceNodes, x.traceSource
	load := oc.load()
	if x.o.synthetic {
		var err error
		if jobs, nodes, src, err = oc.input(); err != nil {
			return nil, "", err
		}
	} else {
		jobs, load.NodeSeed = traceReplicate(jobs, oc)
	}
	w, err := sim.Prepare(jobs, nodes, load)
	if w != nil {
		w.RecordJobs = x.o.jobsOut != ""
	}
	return w, src, err
}

// prepareFirst reads the trace, prepares the first workload and starts
// the report with what it tells: the input, the settings and the
// workload's summary.
func (x *experiment) prepareFirst() (*report.Report, error) {
	if !x.o.synthetic {
		var err error
		if x.traceJobs, x.traceNodes, x.traceSource, err = x.o.input(); err != nil {
			return nil, err
		}
	}
	first, source, err := x.prepare(0, 0)
	if err != nil {
		return nil, err
	}
	x.first = first
	o, seeds := x.o, x.seeds
	if !o.synthetic && (o.runs > 1 || o.seed != replicaBase) {
		source += fmt.Sprintf(" — replicates: seeds %d..%d vary which nodes of each node type the sample keeps, the team assignment's salt and arrivals by up to ±%s (seed %d: the trace as recorded)",
			seeds[0], seeds[len(seeds)-1], runtime.FormatDuration(o.jitter), replicaBase)
	}
	if o.runs > 1 && o.synthetic {
		source = fmt.Sprintf("synthetic (seeds %d..%d, %d jobs each)", seeds[0], seeds[len(seeds)-1], o.synthJobs)
	}
	rep := &report.Report{Source: source, Settings: o.settingsReport(), Workload: first.Summary}
	if len(seeds) > 1 {
		rep.Settings.SeedLast = seeds[len(seeds)-1]
	}
	for _, ax := range o.sweeps {
		rep.Settings.MarkSwept(ax)
	}
	return rep, nil
}

// policyNames returns the policies to simulate, and adds the notes about
// the input to rep: what is not simulated and why, the defaults left out,
// and that a trace is one replay.
func (x *experiment) policyNames(rep *report.Report) ([]string, error) {
	o, failedStarts := x.o, x.first.FailedStarts
	names := sim.ApplicablePolicies(failedStarts)
	if o.policiesSet {
		names, _ = parsePolicies(o.policies)
	}
	if !failedStarts {
		for _, n := range names {
			if sim.PolicyNeedsFailedStarts(n) {
				return nil, fmt.Errorf("simulate: -policies %s: %s", n, o.noBackoffNote())
			}
		}
		rep.Notes = append(rep.Notes, report.Note{Kind: "not_simulated", Policy: "backoff", Text: o.noBackoffNote()})
	}
	if len(o.leftOut) > 0 {
		rep.Notes = append(rep.Notes, report.Note{Kind: "defaults_left_out", Text: fmt.Sprintf("-teams %d has no queue for the built-in default %s, so it is left out",
			o.teams, strings.Join(o.leftOut, ", "))})
	}
	if !o.synthetic && o.runs == 1 && o.seed == replicaBase {
		rep.Notes = append(rep.Notes, report.Note{Kind: "deterministic_replay", Text: "a trace is one deterministic replay, the trace as recorded: no intervals (-runs N replays N replicates: which nodes are sampled, the team assignment, arrival jitter)"})
	}
	return names, nil
}

// tasks lists the simulations in report order: by grid point, seed, then
// policy. The first workload is handed over to its simulations, which drop
// it after the last one.
func (x *experiment) tasks(names []string) []task {
	var tasks []task
	for c := range x.cases {
		for s := range x.seeds {
			var lw *lazyWork
			if c == 0 && s == 0 {
				w := x.first
				lw = newLazyWork(len(names), func() (*sim.Workload, error) { return w, nil })
				x.first = nil
			} else {
				lw = newLazyWork(len(names), func() (*sim.Workload, error) {
					w, _, err := x.prepare(c, s)
					return w, err
				})
			}
			for _, name := range names {
				tasks = append(tasks, task{lw, name})
			}
		}
	}
	return tasks
}

// aggregate puts the results (flat, in task order) into rep: one run's
// results, the statistics over seeds (-runs), or the sweep's points.
func (x *experiment) aggregate(rep *report.Report, names []string, flat []report.Result) {
	o, cases, seeds := x.o, x.cases, x.seeds
	results := make([][][]report.Result, len(cases)) // [case][seed][policy]
	for c := range cases {
		for s := range seeds {
			k := (c*len(seeds) + s) * len(names)
			results[c] = append(results[c], flat[k:k+len(names)])
		}
	}
	switch {
	case len(o.sweeps) > 0:
		labels, values := make([]string, len(cases)), make([][]string, len(cases))
		for c := range cases {
			labels[c], values[c] = cases[c].label, cases[c].values
		}
		rep.Sweep = report.AggregateSweep(o.sweeps, labels, values, names, seeds, results)
	case o.runs > 1:
		rep.Runs = report.AggregateRuns(seeds, names, results[0])
	default:
		rep.Results = results[0][0]
	}
}
