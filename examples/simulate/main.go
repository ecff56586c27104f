package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/replica"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/safefile"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
)

// defaultMemoryLimit is the soft memory limit the simulator runs under
// unless the GOMEMLIMIT environment variable sets one: the garbage
// collector works harder as the heap nears it instead of letting the heap
// double past what is live (Go's default, GOGC=100). A million synthetic
// jobs, six policies on two cores, keep at most 516 MiB live; without a
// limit the process peaked at 1,047 MiB. A run whose live heap exceeds it
// still completes, with more time spent collecting (see the README,
// "Scale").
const defaultMemoryLimit = 768 << 20

// applyMemoryLimit sets defaultMemoryLimit unless env, the value of
// GOMEMLIMIT, is set (the runtime has read it then), and returns the limit
// in force.
func applyMemoryLimit(env string) int64 {
	if env == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	return debug.SetMemoryLimit(-1)
}

func main() {
	applyMemoryLimit(os.Getenv("GOMEMLIMIT"))
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run is the whole program: parse and check the flags, create the output
// files, prepare the workloads, simulate every policy at every grid point
// and seed, and print the report.
func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if o.alloc.on {
		return runAllocation(o, stdout, stderr)
	}
	o.resolveDefaults()
	x, err := newExperiment(o)
	if err != nil {
		return err
	}
	// Output files are created before anything is simulated; an interrupt
	// removes their temporary files.
	stopCleanup := safefile.CleanupOnSignal()
	defer stopCleanup()
	out, err := createOutputs(o)
	defer out.discard()
	if err != nil {
		return err
	}
	rep, err := x.prepareFirst()
	if err != nil {
		return err
	}
	names, err := x.policyNames(rep)
	if err != nil {
		return err
	}
	for _, n := range warnings(rep.Workload, o, names) {
		rep.Notes = append(rep.Notes, n)
		fmt.Fprintf(stderr, "simulate: warning: %s\n", n.Text) // now, not after a long run
	}
	prog := progress.New(stderr, o.progress, clock.Func(time.Now))
	flat, err := simulateAll(x.tasks(names), o.parallel, prog)
	prog.Finish()
	if err != nil {
		return err
	}
	x.aggregate(rep, names, flat)
	if err := out.commit(o, rep); err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return report.WriteTable(stdout, rep, report.Tables{Queues: o.queues, Waits: o.waits})
}

// outputs are the files a run writes at its end (-svg, -sweep-svg,
// -jobs-out); nil when not asked for.
type outputs struct{ svg, sweepSVG, jobs *report.OutputFile }

// createOutputs prepares every output file o asks for; on an error the
// ones already prepared are in the result, for discard.
func createOutputs(o options) (outputs, error) {
	var out outputs
	for _, f := range []struct {
		flag, path string
		file       **report.OutputFile
	}{{"svg", o.svg, &out.svg}, {"sweep-svg", o.sweepSVG, &out.sweepSVG}, {"jobs-out", o.jobsOut, &out.jobs}} {
		if f.path == "" {
			continue
		}
		var err error
		if *f.file, err = report.CreateOutput(f.flag, f.path); err != nil {
			return out, err
		}
	}
	return out, nil
}

// commit writes the outputs from the finished report.
func (out outputs) commit(o options, rep *report.Report) error {
	if out.svg != nil {
		if err := out.svg.Commit(report.RenderSVG(rep)); err != nil {
			return err
		}
	}
	if out.jobs != nil {
		if err := out.jobs.CommitWith(func(w io.Writer) error { return writeJobs(w, o.jobsFormat, rep.Results) }); err != nil {
			return err
		}
	}
	if out.sweepSVG != nil {
		return out.sweepSVG.Commit(report.RenderSweepSVG("tenure what-if simulator — "+rep.Source, rep.Sweep, o.sweepAxes[0], o.sweepAxes[1]))
	}
	return nil
}

// discard drops every output not committed (for defer).
func (out outputs) discard() {
	out.svg.Discard()
	out.sweepSVG.Discard()
	out.jobs.Discard()
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
// and arrivals shifted by its jitter (never before 0), and the seed of its
// stratified node sample. The base seed returns the jobs unchanged and
// seed 0, the evenly spaced sample.
func traceReplicate(jobs []trace.Job, o options) ([]trace.Job, uint64) {
	p := replica.For(o.seed, replicaBase, int64(o.jitter/time.Second))
	if p.Identity() {
		return jobs, 0
	}
	out := slices.Clone(jobs)
	for i := range out {
		out[i].Team = replica.Team(out[i].Name, o.teams, p.TeamSalt)
		out[i].Arrival = max(out[i].Arrival+replica.Jitter(p.JitterSeed, i, p.JitterMax), 0)
	}
	return out, p.NodeSeed
}
