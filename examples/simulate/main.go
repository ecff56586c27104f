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
	policies     string
	interval     time.Duration
	teams        int
	nodeStride   int
	speedup      float64
	json         bool
	svg          string
	buckets      int
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
	fs.Int64Var(&o.seed, "seed", 1, "seed of the synthetic generator")
	fs.IntVar(&o.synthJobs, "jobs", 2000, "number of synthetic jobs")
	fs.StringVar(&o.policies, "policies", strings.Join(policyNames(), ","), "comma-separated policies to compare")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "time between scheduling cycles (simulated)")
	fs.IntVar(&o.teams, "teams", 3, "team queues under each priority class")
	fs.IntVar(&o.nodeStride, "node-stride", 1, "keep every k-th node of the node list (shrinks the cluster)")
	fs.Float64Var(&o.speedup, "speedup", 1, "divide inter-arrival times by this factor (raises the load)")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON")
	fs.StringVar(&o.svg, "svg", "", "write a plot of utilisation and queue length over time to `FILE`")
	fs.IntVar(&o.buckets, "buckets", 200, "time-series resolution for --svg and --json")
	minRT := fs.String("min-runtime", defaultMinRuntimeFlag, "min-runtime per queue (preempt and reclaim), `queue=duration,...`")
	expected := fs.String("expected-runtime", defaultExpectedFlag, "expected runtime per queue for the requeue policy, `queue=duration,...`")
	delay := fs.String("requeue-delay", defaultRequeueDelay, "cooldown after a requeue (`duration`)")
	minAdmit := fs.String("min-admit", defaultMinAdmit, "minAdmitDuration of the time-based policy (`duration`, >= 1m)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: simulate [flags]\n\n%s\nflags:\n", usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("simulate: unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	var errs []error
	var err error
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
	if o.interval < time.Second {
		errs = append(errs, fmt.Errorf("simulate: -interval %v: want at least 1s", o.interval))
	}
	if o.teams < 1 || o.teams > 64 {
		errs = append(errs, fmt.Errorf("simulate: -teams %d: want 1..64", o.teams))
	}
	if o.nodeStride < 1 {
		errs = append(errs, fmt.Errorf("simulate: -node-stride %d: want >= 1", o.nodeStride))
	}
	if !(o.speedup >= 1 && o.speedup <= 1e6) {
		errs = append(errs, fmt.Errorf("simulate: -speedup %v: want 1..1e6", o.speedup))
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
	if _, err := parsePolicies(o.policies); err != nil {
		errs = append(errs, err)
	}
	return o, errors.Join(errs...)
}

const usageText = `Replays a GPU-cluster workload through tenure's policies and compares them.
Default input: the embedded Alibaba openb 2023 trace (CC BY 4.0).`

// input loads the workload the options name.
func (o options) input() (jobs []Job, nodes []Node, source string, err error) {
	switch {
	case o.synthetic:
		jobs, nodes = synthesize(o.seed, o.synthJobs, o.teams)
		return jobs, nodes, fmt.Sprintf("synthetic (seed %d, %d jobs)", o.seed, o.synthJobs), nil
	case o.trace == "" && o.nodes == "":
		jobs, nodes, err = loadEmbedded(o.teams)
		return jobs, nodes, "Alibaba openb 2023 (embedded)", err
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
		source = "Alibaba openb 2023 (embedded)"
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
	jobs, nodes, source, err := o.input()
	if err != nil {
		return err
	}
	w, err := prepare(jobs, nodes, o)
	if err != nil {
		return err
	}
	names, _ := parsePolicies(o.policies)
	prog := newProgress(stderr, len(names)*len(w.jobs))
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
