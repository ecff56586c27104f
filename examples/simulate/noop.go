package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
)

// The one rule for settings that change nothing: every flag given on the
// command line, and every setting a -sweep varies, must be able to change
// the run. One that cannot (its policy is not compared, its input is not
// used, the output it shapes is not asked for) is an error that names
// what it needs, never a warning and never silence: a run whose report is
// byte for byte the one without the flag must not look like an answer to
// the question the flag asked. -help prints noopNotice; the README says
// the same.
const noopNotice = `Every flag given, and every setting -sweep varies, must be able to change the
run: one that cannot (its policy is not compared, its input or its output is
not used, or it is a replay flag given with -allocation) is an error naming
what it needs, as is a -sweep of such a setting.`

// needRule returns "" when a setting can change the run described by c,
// else what it needs ("the timebased policy in -policies").
type needRule func(c noopContext) string

// noopContext is what the rules read: the options as parsed and the
// policies the run compares.
type noopContext struct {
	o    *options
	pols []policies.Policy
}

// flagNeeds has an entry for every flag: nil when the flag acts on every
// replay (an input, a timing, an output, or a setting every policy reads),
// else the rule that says what it needs. A flag without an entry fails
// TestNoOpFlags. With -allocation, a flag not in allocationReads needs
// the replay whatever its entry (noopContext.need).
var flagNeeds = map[string]needRule{
	// Input.
	"trace": nil, "nodes": nil, "synthetic": nil, "seed": nil, "teams": nil,
	"jobs":        needSynthetic,
	"fail-rate":   needSynthetic,
	"node-stride": nil, "speedup": nil,
	"scale-mix": func(c noopContext) string {
		if o := *c.o; resolvedStride(o) > 1 {
			return ""
		}
		return "a cluster sample, -node-stride above 1 (with every node kept no job is thinned)"
	},
	"arrival-jitter": func(c noopContext) string {
		if !c.o.synthetic && (c.o.runs > 1 || c.o.seed != replicaBase) {
			return ""
		}
		return "trace replicates, -runs above 1 or a -seed other than 1 on a trace (seed 1 is the trace as recorded; -synthetic has no recorded arrivals)"
	},
	// Run and output.
	"policies": nil, "interval": nil, "tail": nil, "runs": nil, "sweep": nil,
	"parallel": nil, "progress": nil, // how the run goes (its speed, its progress line), never what it reports
	"json": nil, "queues": nil, "waits": nil, "svg": nil, "jobs-out": nil, "thrash-window": nil,
	"buckets":         nil, // also the fragmentation sampling interval, in every report
	"jobs-out-format": func(c noopContext) string { return needIf(c.o.jobsOut != "", "-jobs-out") },
	"sweep-svg":       func(c noopContext) string { return needIf(len(c.o.sweeps) > 0, "-sweep") },
	"sweep-axes":      func(c noopContext) string { return needIf(c.o.sweepSVG != "", "-sweep-svg") },
	// Settings every policy reads.
	"checkpoint": nil, "placement": nil, "preemptor-delay": nil, "eviction-budget": nil,
	"checkpoint-save":    needCheckpoint,
	"checkpoint-restore": needCheckpoint,
	// Settings of some policies.
	"min-runtime":         needPolicy("min-runtime protection", func(p policies.Policy) bool { return p.MinRuntime }),
	"preempt-min-runtime": needPolicy("min-runtime protection", func(p policies.Policy) bool { return p.MinRuntime }),
	"reclaim-method":      needPolicy("min-runtime protection", func(p policies.Policy) bool { return p.MinRuntime }),
	"expected-runtime":    needPolicy("the requeue pass", func(p policies.Policy) bool { return p.Requeue }),
	"requeue-delay":       needPolicy("the requeue pass", func(p policies.Policy) bool { return p.Requeue }),
	"requeue-contenders":  needPolicy("the requeue pass", func(p policies.Policy) bool { return p.Requeue }),
	"max-lost-work":       needPolicy("the requeue pass", func(p policies.Policy) bool { return p.Requeue }),
	"min-admit":           needPolicy("time-based preemption", func(p policies.Policy) bool { return p.Equal }),
	"newer-rule":          needPolicy("time-based preemption", func(p policies.Policy) bool { return p.Equal }),
	"reserve-after":       needPolicy("reservations", func(p policies.Policy) bool { return p.Reserve || p.Reservation }),
	"reservations":        needPolicy("reservations", func(p policies.Policy) bool { return p.Reserve || p.Reservation }),
	"reserve-min-gpus":    needPolicy("tenure's reservations", func(p policies.Policy) bool { return p.Reservation }),
	// The allocation experiment (allocation.go).
	"allocation":     nil,
	"allocation-out": func(c noopContext) string { return needIf(c.o.alloc.on, "-allocation") },
}

// allocationReads are the flags the allocation experiment (-allocation,
// allocation.go) reads. With -allocation every other flag needs the
// replay: the rule says so before the flag's own entry in flagNeeds, which
// is about the replay.
var allocationReads = []string{"trace", "nodes", "placement", "seed", "runs", "parallel", "allocation-out", "allocation"}

// need returns what the flag name needs to change the run c describes,
// "" when it can change it: the one rule, for a flag given and for a
// setting swept.
func (c noopContext) need(name string) string {
	if c.o.alloc.on && !slices.Contains(allocationReads, name) {
		reads := allocationReads[:len(allocationReads)-1]
		return fmt.Sprintf("the replay, not -allocation (the allocation experiment reads only -%s and -%s)",
			strings.Join(reads[:len(reads)-1], ", -"), reads[len(reads)-1])
	}
	if rule := flagNeeds[name]; rule != nil {
		return rule(c)
	}
	return ""
}

// checkNoOps applies the rule to the flags given and the settings swept.
func (o *options) checkNoOps(given []string) []error {
	c := noopContext{o: o}
	names := sim.ApplicablePolicies(o.synthetic && o.failRate > 0)
	if o.policiesSet {
		var err error
		if names, err = parsePolicies(o.policies); err != nil && !o.alloc.on {
			return nil // reported by checkRun; the replay's rules need the policies
		}
	}
	for _, n := range names {
		p, _ := policies.Mechanisms(n)
		c.pols = append(c.pols, p)
	}
	var errs []error
	for _, name := range given {
		if need := c.need(name); need != "" {
			errs = append(errs, fmt.Errorf("simulate: -%s needs %s: without it, it changes nothing", name, need))
		}
	}
	if o.alloc.on {
		return errs // -sweep itself is the error
	}
	for _, ax := range o.sweeps {
		flag, _, _ := strings.Cut(ax.Name, ".")
		if need := c.need(flag); need != "" {
			errs = append(errs, fmt.Errorf("simulate: -sweep %s needs %s: without it, every point is the same run", ax.Name, need))
		}
	}
	return errs
}

// needPolicy is the rule of a setting only policies with mechanism what
// read (uses tells which).
func needPolicy(what string, uses func(policies.Policy) bool) needRule {
	return func(c noopContext) string {
		if slices.ContainsFunc(c.pols, uses) {
			return ""
		}
		var with []string
		for _, r := range policies.Registry {
			if p, _ := policies.Mechanisms(r.Name); uses(p) {
				with = append(with, r.Name)
			}
		}
		return fmt.Sprintf("a policy with %s in -policies (%s)", what, strings.Join(with, ", "))
	}
}

func needSynthetic(c noopContext) string {
	return needIf(c.o.synthetic, "-synthetic (a trace's jobs are the ones it recorded)")
}

func needCheckpoint(c noopContext) string {
	return needIf(c.o.checkpoint > 0 || slices.ContainsFunc(c.o.sweeps, func(ax report.SweepAxis) bool { return ax.Name == "checkpoint" }),
		"-checkpoint or -sweep checkpoint=... (nothing is saved or restored without checkpoints)")
}

// needIf returns "" when ok, else need.
func needIf(ok bool, need string) string {
	if ok {
		return ""
	}
	return need
}

// resolvedStride is the node stride o runs with (resolveDefaults' rule).
func resolvedStride(o options) int {
	o.resolveDefaults()
	return o.nodeStride
}
