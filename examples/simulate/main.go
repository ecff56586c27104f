package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/replica"
	"github.com/tenurepolicy/tenure/runtime"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/safefile"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	o.resolveDefaults()
	cases := []sweepCase{{opts: o}}
	if len(o.sweeps) > 0 {
		if cases, err = sweepCases(o, o.sweeps); err != nil {
			return err
		}
	}
	// Output files are created before anything is simulated; an interrupt
	// removes their temporary files.
	stopCleanup := safefile.CleanupOnSignal()
	defer stopCleanup()
	var svg, sweepSVG *report.OutputFile
	if o.svg != "" {
		if svg, err = report.CreateOutput("svg", o.svg); err != nil {
			return err
		}
		defer svg.Discard()
	}
	if o.sweepSVG != "" {
		if sweepSVG, err = report.CreateOutput("sweep-svg", o.sweepSVG); err != nil {
			return err
		}
		defer sweepSVG.Discard()
	}
	var jobsFile *report.OutputFile
	if o.jobsOut != "" {
		if jobsFile, err = report.CreateOutput("jobs-out", o.jobsOut); err != nil {
			return err
		}
		defer jobsFile.Discard()
	}
	seeds := seedList(o.seed, o.runs)
	// A trace is read once; each grid point and seed gets its own
	// workload, prepared inside the simulations (lazyWork), so memory
	// follows the simulations running at once. The first is prepared
	// here: it says which policies apply and fills the header.
	var traceJobs []trace.Job
	var traceNodes []trace.Node
	var traceSource string
	if !o.synthetic {
		if traceJobs, traceNodes, traceSource, err = o.input(); err != nil {
			return err
		}
	}
	prepareCase := func(c, s int) (*sim.Workload, string, error) {
		oc := cases[c].opts
		oc.seed = seeds[s]
		jobs, nodes, src := traceJobs, traceNodes, traceSource
		load := oc.load()
		if o.synthetic {
			var err error
			if jobs, nodes, src, err = oc.input(); err != nil {
				return nil, "", err
			}
		} else {
			jobs, load.NodeOffset = traceReplicate(jobs, oc)
		}
		w, err := sim.Prepare(jobs, nodes, load)
		if w != nil {
			w.RecordJobs = o.jobsOut != ""
		}
		return w, src, err
	}
	first, source, err := prepareCase(0, 0)
	if err != nil {
		return err
	}
	summary, failedStarts := first.Summary, first.FailedStarts
	names := sim.ApplicablePolicies(failedStarts)
	if o.policiesSet {
		names, _ = parsePolicies(o.policies)
	}
	var notes []report.Note
	if !failedStarts {
		for _, n := range names {
			if sim.PolicyNeedsFailedStarts(n) {
				return fmt.Errorf("simulate: -policies %s: %s", n, o.noBackoffNote())
			}
		}
		notes = append(notes, report.Note{Kind: "not_simulated", Policy: "backoff", Text: o.noBackoffNote()})
	}
	if len(o.leftOut) > 0 {
		notes = append(notes, report.Note{Kind: "defaults_left_out", Text: fmt.Sprintf("-teams %d has no queue for the built-in default %s, so it is left out",
			o.teams, strings.Join(o.leftOut, ", "))})
	}
	for _, n := range warnings(summary, o, names) {
		notes = append(notes, n)
		fmt.Fprintf(stderr, "simulate: warning: %s\n", n.Text) // now, not after a long run
	}
	if !o.synthetic && o.runs == 1 && o.seed == replicaBase {
		notes = append(notes, report.Note{Kind: "deterministic_replay", Text: "a trace is one deterministic replay, the trace as recorded: no intervals (-runs N replays N replicates: which nodes are sampled, the team assignment, arrival jitter)"})
	}
	if !o.synthetic && (o.runs > 1 || o.seed != replicaBase) {
		source += fmt.Sprintf(" — replicates: seeds %d..%d vary the node sample's offset, the team assignment's salt and arrivals by up to ±%s (seed %d: the trace as recorded)",
			seeds[0], seeds[len(seeds)-1], runtime.FormatDuration(o.jitter), replicaBase)
	}
	if o.runs > 1 && o.synthetic {
		source = fmt.Sprintf("synthetic (seeds %d..%d, %d jobs each)", seeds[0], seeds[len(seeds)-1], o.synthJobs)
	}
	var tasks []task
	for c := range cases {
		for s := range seeds {
			var lw *lazyWork
			if c == 0 && s == 0 {
				w := first
				lw = newLazyWork(len(names), func() (*sim.Workload, error) { return w, nil })
				first = nil // dropped with its last simulation
			} else {
				lw = newLazyWork(len(names), func() (*sim.Workload, error) {
					w, _, err := prepareCase(c, s)
					return w, err
				})
			}
			for _, name := range names {
				tasks = append(tasks, task{lw, name})
			}
		}
	}
	prog := progress.New(stderr, o.progress, clock.Real{})
	flat, err := simulateAll(tasks, o.parallel, prog)
	prog.Finish()
	if err != nil {
		return err
	}
	results := make([][][]report.Result, len(cases)) // [case][seed][policy]
	for c := range cases {
		for s := range seeds {
			k := (c*len(seeds) + s) * len(names)
			results[c] = append(results[c], flat[k:k+len(names)])
		}
	}
	rep := &report.Report{Source: source, Settings: o.settingsReport(), Workload: summary, Notes: notes}
	if len(seeds) > 1 {
		rep.Settings.SeedLast = seeds[len(seeds)-1]
	}
	for _, ax := range o.sweeps {
		rep.Settings.MarkSwept(ax)
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
	if svg != nil {
		if err := svg.Commit(report.RenderSVG(rep)); err != nil {
			return err
		}
	}
	if jobsFile != nil {
		if err := jobsFile.CommitWith(func(w io.Writer) error { return writeJobs(w, o.jobsFormat, rep.Results) }); err != nil {
			return err
		}
	}
	if sweepSVG != nil {
		if err := sweepSVG.Commit(report.RenderSweepSVG("tenure what-if simulator — "+rep.Source, rep.Sweep, o.sweepAxes[0], o.sweepAxes[1])); err != nil {
			return err
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return report.WriteTable(stdout, rep, report.Tables{Queues: o.queues, Waits: o.waits})
}

// writeJobs writes every result's per-job events, policy after policy.
func writeJobs(w io.Writer, f jobsout.Format, results []report.Result) error {
	jw := jobsout.NewWriter(w, f)
	for _, r := range results {
		for _, e := range r.Jobs {
			if err := jw.Write(e); err != nil {
				return err
			}
		}
	}
	return jw.Flush()
}

// replicaBase is the seed whose trace replicate is the trace as recorded.
const replicaBase = 1

// traceReplicate returns the trace's jobs as replicate o.seed sees them
// (see package replica): team queues reassigned with the replicate's salt
// and arrivals shifted by its jitter (never before 0), and the node
// offset of its node sample. The base seed returns the jobs unchanged.
func traceReplicate(jobs []trace.Job, o options) ([]trace.Job, int) {
	p := replica.For(o.seed, replicaBase, max(o.nodeStride, 1), int64(o.jitter/time.Second))
	if p.Identity() {
		return jobs, 0
	}
	out := slices.Clone(jobs)
	for i := range out {
		out[i].Team = replica.Team(out[i].Name, o.teams, p.TeamSalt)
		out[i].Arrival = max(out[i].Arrival+replica.Jitter(p.JitterSeed, i, p.JitterMax), 0)
	}
	return out, p.NodeOffset
}
