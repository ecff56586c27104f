package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/runtime"
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

// options are the command-line settings.
type options struct {
	trace, nodes string
	synthetic    bool
	seed         int64
	synthJobs    int
	failRate     float64
	policiesSet  bool // -policies given explicitly
	policies     string
	interval     time.Duration
	teams        int
	nodeStride   int
	speedup      float64
	json         bool
	svg          string
	buckets      int
	tail         time.Duration
	checkpoint   time.Duration
	settings     settings
}

// Defaults of the policy settings (see the package comment for why).
const (
	defaultMinRuntimeFlag = "be=5m,burstable=15m,ls=30m"
	defaultExpectedFlag   = "be=1h,burstable=4h,ls=1d"
	defaultRequeueDelay   = "30m"
	defaultMinAdmit       = "2h"
)

// parseQueueDurations parses "queue=duration,..." with tenure's duration
// grammar (runtime.ParseDuration: 90s, 1.5h, 2d, 1w...).
func parseQueueDurations(flagName, s string) ([]queueDuration, error) {
	var out []queueDuration
	var errs []error
	for _, item := range splitList(s) {
		q, d, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(q) == "" {
			errs = append(errs, fmt.Errorf("simulate: -%s: %q: want queue=duration", flagName, item))
			continue
		}
		dur, err := runtime.ParseDuration(strings.TrimSpace(d))
		if err != nil {
			errs = append(errs, fmt.Errorf("simulate: -%s: %w", flagName, err))
			continue
		}
		out = append(out, queueDuration{Queue: strings.TrimSpace(q), D: dur})
	}
	return out, errors.Join(errs...)
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.trace, "trace", "", "pod list CSV in the openb format (default: the embedded Alibaba trace)")
	fs.StringVar(&o.nodes, "nodes", "", "node list CSV in the openb format (default: the embedded Alibaba node list)")
	fs.BoolVar(&o.synthetic, "synthetic", false, "use the seeded synthetic workload instead of a trace")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the synthetic generator and of the backoff policy's jitter")
	fs.IntVar(&o.synthJobs, "jobs", 2000, "number of synthetic jobs")
	fs.Float64Var(&o.failRate, "fail-rate", 0, "synthetic only: fraction of jobs whose early starts fail (enables the backoff policy)")
	fs.StringVar(&o.policies, "policies", "", "comma-separated policies to compare, from "+strings.Join(policyNames(), ",")+" (default: all that apply to the input)")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "time between scheduling cycles (simulated)")
	fs.IntVar(&o.teams, "teams", 3, "team queues under each priority class")
	fs.IntVar(&o.nodeStride, "node-stride", 0, "keep every k-th node of the node list, shrinking the cluster (0: 40 for the embedded trace, else 1)")
	fs.Float64Var(&o.speedup, "speedup", 0, "divide inter-arrival times by this factor, raising the load (0: 10 for the embedded trace, else 1)")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON")
	fs.StringVar(&o.svg, "svg", "", "write a plot of utilisation and queue length over time to `FILE`")
	fs.IntVar(&o.buckets, "buckets", 200, "time-series resolution for -svg and -json")
	tail := fs.String("tail", "2d", "keep simulating this long after the last arrival (`duration`); jobs not done by then are reported unfinished")
	checkpoint := fs.String("checkpoint", "0s", "jobs save their progress every `duration` of work, so an eviction loses only the work since the last save (0s: restart from scratch)")
	minRT := fs.String("min-runtime", defaultMinRuntimeFlag, "min-runtime per queue (preempt and reclaim), `queue=duration,...`")
	expected := fs.String("expected-runtime", defaultExpectedFlag, "expected runtime per queue for the requeue policy, `queue=duration,...`")
	delay := fs.String("requeue-delay", defaultRequeueDelay, "cooldown after a requeue (`duration`)")
	contenders := fs.String("requeue-contenders", "higher", "who may take an over-running job's resources (`mode`): higher (strictly higher priority, tenure's default) or higher-or-equal")
	newer := fs.Bool("newer-rule", true, "timebased: keep LowerOrNewerEqualPriority's \"newer\" rule; false leaves only minAdmit expiry")
	minAdmit := fs.String("min-admit", defaultMinAdmit, "minAdmitDuration of the time-based policy (`duration`, >= 1m)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: simulate [flags]\n\n%s\n\npolicies:\n", usageText)
		for _, p := range policyRegistry {
			fmt.Fprintf(fs.Output(), "  %-11s %s\n", p.name, p.about)
		}
		fmt.Fprintf(fs.Output(), "\nflags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nThe mapping of the trace, the model and every metric: go doc ./examples/simulate\n")
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	fs.Visit(func(f *flag.Flag) { o.policiesSet = o.policiesSet || f.Name == "policies" })
	if fs.NArg() > 0 {
		return o, fmt.Errorf("simulate: unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	var errs []error
	var err error
	if o.tail, err = runtime.ParseDuration(*tail); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -tail: %w", err))
	} else if o.tail > maxTail {
		errs = append(errs, fmt.Errorf("simulate: -tail %s: want at most %s", runtime.FormatDuration(o.tail), runtime.FormatDuration(maxTail)))
	}
	if o.checkpoint, err = runtime.ParseDuration(*checkpoint); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -checkpoint: %w", err))
	}
	if o.settings.MinRuntime, err = parseQueueDurations("min-runtime", *minRT); err != nil {
		errs = append(errs, err)
	}
	if o.settings.Expected, err = parseQueueDurations("expected-runtime", *expected); err != nil {
		errs = append(errs, err)
	}
	if o.settings.RequeueDelay, err = runtime.ParseDuration(*delay); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -requeue-delay: %w", err))
	}
	if o.settings.MinAdmit, err = runtime.ParseDuration(*minAdmit); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -min-admit: %w", err))
	}
	o.settings.NoNewer = !*newer
	switch *contenders {
	case "higher":
	case "higher-or-equal":
		o.settings.RequeueEqual = true
	default:
		errs = append(errs, fmt.Errorf("simulate: -requeue-contenders %q: want higher or higher-or-equal", *contenders))
	}
	if o.interval < time.Second || o.interval > maxInterval || o.interval%time.Second != 0 {
		errs = append(errs, fmt.Errorf("simulate: -interval %v: want whole seconds, 1s..%s", o.interval, runtime.FormatDuration(maxInterval)))
	}
	if o.teams < 1 || o.teams > 64 {
		errs = append(errs, fmt.Errorf("simulate: -teams %d: want 1..64", o.teams))
	}
	if o.nodeStride < 0 {
		errs = append(errs, fmt.Errorf("simulate: -node-stride %d: want >= 1 (or 0 for the default)", o.nodeStride))
	}
	if !(o.speedup == 0 || o.speedup >= 1 && o.speedup <= 1e6) {
		errs = append(errs, fmt.Errorf("simulate: -speedup %v: want 1..1e6 (or 0 for the default)", o.speedup))
	}
	if o.synthJobs < 1 || o.synthJobs > 1_000_000 {
		errs = append(errs, fmt.Errorf("simulate: -jobs %d: want 1..1000000", o.synthJobs))
	}
	if o.buckets < 1 || o.buckets > 100_000 {
		errs = append(errs, fmt.Errorf("simulate: -buckets %d: want 1..100000", o.buckets))
	}
	if o.synthetic && (o.trace != "" || o.nodes != "") {
		errs = append(errs, errors.New("simulate: -synthetic cannot be combined with -trace or -nodes"))
	}
	if o.policiesSet {
		if _, err := parsePolicies(o.policies); err != nil {
			errs = append(errs, err)
		}
	}
	if !(o.failRate >= 0 && o.failRate <= 1) {
		errs = append(errs, fmt.Errorf("simulate: -fail-rate %v: want 0..1", o.failRate))
	} else if o.failRate > 0 && !o.synthetic {
		errs = append(errs, errors.New("simulate: -fail-rate needs -synthetic (failed starts are generated; a trace has none)"))
	}
	return o, errors.Join(errs...)
}

// embeddedSource names the default input in reports.
const embeddedSource = "Alibaba openb 2023 (embedded)"

// Load knobs applied to the embedded trace by default. At its real scale the
// trace never asks for more than about 1% of its 6,212 GPUs (66 GPUs, 56 tasks
// at the busiest moment), so no policy would ever act; every 40th node (31
// nodes, 147 GPUs) with inter-arrival times divided by 10 gives a busy cluster.
const (
	embeddedNodeStride = 40
	embeddedSpeedup    = 10
)

// maxInterval bounds -interval: the simulation runs in whole seconds, and a
// scheduler that cycles less than daily is not a scheduler.
const maxInterval = 24 * time.Hour

// maxTail bounds -tail so simulated instants stay far inside time.Duration.
const maxTail = 10 * 365 * 24 * time.Hour

// noBackoffNote says why the backoff policy is not simulated for the input
// the options name (one without failed starts).
func (o options) noBackoffNote() string {
	const why = "backoff: not simulated — "
	switch {
	case o.synthetic:
		return why + "-fail-rate is 0, so no start fails; use -fail-rate 0.1 to see it"
	case o.trace != "":
		return why + "a trace has no failed starts (pod_phase is each pod's final phase, " +
			"and the format has no restart counts or readiness times); use -synthetic -fail-rate 0.1 to see it"
	}
	return why + "the input has no failed starts " +
		"(a trace's pod_phase is each pod's final phase; the openb trace's Failed pods ran, a median of 219 s, before failing, " +
		"and it has no restart counts or readiness times); use -synthetic -fail-rate 0.1 to see it"
}

// resolveDefaults fills the load knobs left at 0.
func (o *options) resolveDefaults() {
	embedded := !o.synthetic && o.trace == "" && o.nodes == ""
	if o.nodeStride == 0 {
		o.nodeStride = 1
		if embedded {
			o.nodeStride = embeddedNodeStride
		}
	}
	if o.speedup == 0 {
		o.speedup = 1
		if embedded {
			o.speedup = embeddedSpeedup
		}
	}
}

const usageText = `Replays a GPU-cluster workload through tenure's policies and compares them.
Default input: the embedded Alibaba openb 2023 trace (CC BY 4.0).`

// input loads the workload the options name.
func (o options) input() (jobs []Job, nodes []Node, source string, err error) {
	switch {
	case o.synthetic:
		jobs, nodes = synthesize(o.seed, o.synthJobs, o.teams, o.failRate)
		src := fmt.Sprintf("synthetic (seed %d, %d jobs", o.seed, o.synthJobs)
		if o.failRate > 0 {
			src += fmt.Sprintf(", fail rate %g", o.failRate)
		}
		return jobs, nodes, src + ")", nil
	case o.trace == "" && o.nodes == "":
		jobs, nodes, err = loadEmbedded(o.teams)
		return jobs, nodes, embeddedSource, err
	}
	if o.trace != "" {
		data, err := os.ReadFile(o.trace)
		if err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		if jobs, err = ParsePods(o.trace, bytes.NewReader(data), o.teams); err != nil {
			return nil, nil, "", err
		}
		source = o.trace
	} else {
		if jobs, err = ParsePods("openb_pod_list_default.csv", bytes.NewReader(embeddedPods), o.teams); err != nil {
			return nil, nil, "", err
		}
		source = embeddedSource
	}
	if o.nodes != "" {
		data, err := os.ReadFile(o.nodes)
		if err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		if nodes, err = ParseNodes(o.nodes, bytes.NewReader(data)); err != nil {
			return nil, nil, "", err
		}
		source += " on " + o.nodes
	} else if nodes, err = ParseNodes("openb_node_list_gpu_node.csv", bytes.NewReader(embeddedNodes)); err != nil {
		return nil, nil, "", err
	}
	return jobs, nodes, source, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	o.resolveDefaults()
	jobs, nodes, source, err := o.input()
	if err != nil {
		return err
	}
	w, err := prepare(jobs, nodes, o)
	if err != nil {
		return err
	}
	names := applicablePolicies(w.failedStarts)
	if o.policiesSet {
		names, _ = parsePolicies(o.policies)
	}
	if !w.failedStarts {
		w.summary.Notes = append(w.summary.Notes, o.noBackoffNote())
		for _, n := range names {
			if policyNeedsFailedStarts(n) {
				return fmt.Errorf("simulate: -policies %s: %s", n, o.noBackoffNote())
			}
		}
	}
	prog := newProgress(stderr)
	results, err := simulateAll(w, names, prog)
	prog.finish()
	if err != nil {
		return err
	}
	rep := &Report{Source: source, Workload: w.summary, Results: results}
	if o.svg != "" {
		if err := os.WriteFile(o.svg, []byte(renderSVG(rep)), 0o644); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeTable(stdout, rep)
}
