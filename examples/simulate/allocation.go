package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/alloc"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/safefile"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// allocationOptions are the settings of the allocation experiment
// (-allocation): the FGD paper's table, not the event-driven replay.
type allocationOptions struct {
	on       bool
	out      string
	policies []alloc.Policy
}

// allocationTune is the paper's inflation: arrivals up to 130% of the
// cluster's GPU capacity.
const allocationTune = 1.3

// allocationFlags defines -allocation and -allocation-out.
func (o *options) allocationFlags(fs *flag.FlagSet) {
	fs.BoolVar(&o.alloc.on, "allocation", false, "run the FGD paper's allocation experiment instead of the replay: arrivals only, inflated to 130% of GPU capacity, each pod placed on arrival or failed; -placement (a list; default all six: "+strings.Join(allocationPolicyNames(), ",")+"), -seed and -runs (seeds), -trace, -nodes, -parallel and -allocation-out apply, and any other flag is an error")
	fs.StringVar(&o.alloc.out, "allocation-out", "", "with -allocation: write each run's allocation curve to `FILE` in the paper's CSV shape (workload, sc_policy, tune, seed, total_gpus, 0 … 130), one row per run")
}

func allocationPolicyNames() []string {
	var out []string
	for _, p := range alloc.Policies() {
		out = append(out, p.String())
	}
	return out
}

// checkAllocation converts -placement for the allocation experiment. A
// flag the experiment does not read (-synthetic, -policies, -json, ...)
// is the no-op rule's error (noop.go), as is -allocation-out alone.
func (o *options) checkAllocation(fs *flag.FlagSet, r *rawFlags) []error {
	if !o.alloc.on {
		return nil // -allocation-out alone: the no-op rule (noop.go)
	}
	var errs []error
	placementSet := false
	fs.Visit(func(f *flag.Flag) { placementSet = placementSet || f.Name == "placement" })
	o.alloc.policies = alloc.Policies()
	if placementSet {
		o.alloc.policies = nil
		for _, name := range splitList(*r.placement) {
			p, err := alloc.ParsePolicy(name)
			if _, replayErr := frag.ParsePolicy(name); err != nil && replayErr == nil {
				errs = append(errs, fmt.Errorf("simulate: -placement %s: a placement of the replay, not of the allocation experiment (%s)", name, strings.Join(allocationPolicyNames(), ", ")))
				continue
			} else if err != nil {
				errs = append(errs, fmt.Errorf("simulate: -placement: %w", err))
				continue
			}
			o.alloc.policies = append(o.alloc.policies, p)
		}
		if len(o.alloc.policies) == 0 && len(errs) == 0 {
			errs = append(errs, errors.New("simulate: -placement: no policy given"))
		}
	}
	return errs
}

// replayPlacement parses -placement for the replay, which places with one
// policy of package frag. A policy, or a list, of the allocation
// experiment is refused as one: the replay has no random, dot-prod,
// gpu-clustering or gpu-packing, and takes one policy, not a list.
func replayPlacement(s string) (frag.Policy, error) {
	p, err := frag.ParsePolicy(s)
	if err == nil {
		return p, nil
	}
	items := splitList(s)
	allocOnly := len(items) > 0
	for _, item := range items {
		if _, err := alloc.ParsePolicy(item); err != nil {
			allocOnly = false
		}
	}
	replay := fmt.Sprintf("the replay places with one of %s, %s or %s", frag.FirstFit, frag.BestFit, frag.FragGradient)
	switch {
	case allocOnly && len(items) > 1:
		return p, fmt.Errorf("simulate: -placement %s: a list of policies is for the allocation experiment (-allocation); %s", s, replay)
	case allocOnly:
		return p, fmt.Errorf("simulate: -placement %s: a policy of the allocation experiment only (-allocation); %s", s, replay)
	}
	return p, fmt.Errorf("simulate: -placement: %w", err)
}

// runAllocation runs the allocation experiment: every policy with every
// seed, the rows written to -allocation-out and a summary table printed.
func runAllocation(o options, stdout, stderr io.Writer) error {
	pods, nodes, workload, err := allocationInput(o)
	if err != nil {
		return err
	}
	stopCleanup := safefile.CleanupOnSignal()
	defer stopCleanup()
	var out *report.OutputFile
	if o.alloc.out != "" {
		if out, err = report.CreateOutput("allocation-out", o.alloc.out); err != nil {
			return err
		}
		defer out.Discard()
	}
	start := time.Now()
	rows, results, err := allocationRuns(o, pods, nodes, workload)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "simulate: %d allocation runs in %.1fs\n", len(rows), time.Since(start).Seconds())
	if out != nil {
		if err := out.CommitWith(func(w io.Writer) error { return alloc.WriteCSV(w, rows) }); err != nil {
			return err
		}
	}
	return writeAllocationTable(stdout, o, workload, len(nodes), rows, results)
}

// allocationInput loads the pod and node lists -trace and -nodes name
// (the embedded trace by default) and names the workload after the pod
// list's file.
func allocationInput(o options) ([]trace.Request, []trace.Node, string, error) {
	podData, podFile := embeddedPods, "openb_pod_list_default.csv"
	if o.trace != "" {
		data, err := os.ReadFile(o.trace)
		if err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		podData, podFile = data, o.trace
	}
	pods, err := trace.ParseRequests(podFile, bytes.NewReader(podData))
	if err != nil {
		return nil, nil, "", err
	}
	nodeData, nodeFile := embeddedNodes, "openb_node_list_gpu_node.csv"
	if o.nodes != "" {
		if nodeData, err = os.ReadFile(o.nodes); err != nil {
			return nil, nil, "", fmt.Errorf("simulate: %w", err)
		}
		nodeFile = o.nodes
	}
	nodes, err := trace.ParseNodes(nodeFile, bytes.NewReader(nodeData))
	if err != nil {
		return nil, nil, "", err
	}
	return pods, nodes, strings.TrimSuffix(filepath.Base(podFile), filepath.Ext(podFile)), nil
}

// allocationRuns runs every policy with seeds -seed … -seed+runs−1, at
// most -parallel at once; rows come in policy then seed order whatever
// the parallelism.
func allocationRuns(o options, pods []trace.Request, nodes []trace.Node, workload string) ([]alloc.Row, []alloc.Result, error) {
	n := len(o.alloc.policies) * o.runs
	rows, results, errs := make([]alloc.Row, n), make([]alloc.Result, n), make([]error, n)
	sem := make(chan struct{}, o.parallel)
	var wg sync.WaitGroup
	for i := range n {
		pol, seed := o.alloc.policies[i/o.runs], o.seed+int64(i%o.runs)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, err := alloc.Run(pods, nodes, alloc.Config{Policy: pol, Seed: seed, Tune: allocationTune})
			if err != nil {
				errs[i] = fmt.Errorf("simulate: -allocation %s seed %d: %w", pol, seed, err)
				return
			}
			results[i] = res
			rows[i] = alloc.Row{Workload: workload, Policy: pol, Tune: allocationTune, Seed: seed,
				TotalGPUs: float64(res.CapacityMilli) / 1000, Curve: alloc.Discretize(res)}
		}()
	}
	wg.Wait()
	return rows, results, errors.Join(errs...)
}

// writeAllocationTable prints, per policy, the mean allocation at 100% and
// 130% arrived over the seeds (with the standard deviation at 130%) and
// the mean number of pods that failed.
func writeAllocationTable(w io.Writer, o options, workload string, nodes int, rows []alloc.Row, results []alloc.Result) error {
	fmt.Fprintf(w, "allocation experiment: %s on %d nodes (%g GPUs), arrivals to %g%% of GPU capacity, seeds %d-%d\n",
		workload, nodes, rows[0].TotalGPUs, 100*allocationTune, o.seed, o.seed+int64(o.runs)-1)
	fmt.Fprintln(w, "allocated GPUs, % of capacity, mean over the seeds, once this share of capacity has arrived:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\truns\tat 100%\tat 130%\t(sd)\tfailed pods\t")
	for k, pol := range o.alloc.policies {
		var at100, at130, failed []float64
		for i := k * o.runs; i < (k+1)*o.runs; i++ {
			at100 = append(at100, rows[i].Curve[100])
			at130 = append(at130, rows[i].Curve[alloc.CurveMax])
			failed = append(failed, float64(results[i].Failed))
		}
		m130, sd := meanSD(at130)
		m100, _ := meanSD(at100)
		mf, _ := meanSD(failed)
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.0f\t\n", pol, o.runs, m100, m130, sd, mf)
	}
	return tw.Flush()
}

// meanSD returns the mean and the sample standard deviation (0 for one
// value) of vs, skipping NaN.
func meanSD(vs []float64) (float64, float64) {
	var s, ss float64
	n := 0
	for _, v := range vs {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	m := s / float64(n)
	for _, v := range vs {
		if !math.IsNaN(v) {
			ss += (v - m) * (v - m)
		}
	}
	if n == 1 {
		return m, 0
	}
	return m, math.Sqrt(ss / float64(n-1))
}
