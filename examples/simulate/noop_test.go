package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// noopCase tests one flag against the no-op rule (see noop.go): noop are
// arguments where the flag cannot change the run (nil for a flag that acts
// on every run), acts arguments where it can. Both hold the flag itself.
type noopCase struct {
	noop, acts []string
}

// noopCases has one case per flag of the simulator.
var noopCases = map[string]noopCase{
	"trace":          {acts: []string{"-trace", "pods.csv"}},
	"nodes":          {acts: []string{"-nodes", "nodes.csv"}},
	"synthetic":      {acts: []string{"-synthetic"}},
	"seed":           {acts: []string{"-seed", "2"}},
	"teams":          {acts: []string{"-teams", "2"}},
	"jobs":           {noop: []string{"-jobs", "100"}, acts: []string{"-synthetic", "-jobs", "100"}},
	"fail-rate":      {noop: []string{"-fail-rate", "0.1"}, acts: []string{"-synthetic", "-fail-rate", "0.1"}},
	"node-stride":    {acts: []string{"-node-stride", "20"}},
	"speedup":        {acts: []string{"-speedup", "10"}},
	"scale-mix":      {noop: []string{"-synthetic", "-scale-mix=false"}, acts: []string{"-scale-mix=false"}},
	"arrival-jitter": {noop: []string{"-runs", "1", "-arrival-jitter", "1m"}, acts: []string{"-arrival-jitter", "1m"}},
	"policies":       {acts: []string{"-policies", "priority"}},
	"interval":       {acts: []string{"-interval", "1m"}},
	"tail":           {acts: []string{"-tail", "1d"}},
	"parallel":       {acts: []string{"-parallel", "1"}},
	"runs":           {acts: []string{"-runs", "2"}},
	"sweep":          {acts: []string{"-sweep", "checkpoint=0s,30m"}},
	"progress":       {acts: []string{"-progress", "never"}},
	"json":           {acts: []string{"-json"}},
	"queues":         {acts: []string{"-queues"}},
	"waits":          {acts: []string{"-waits"}},
	"svg":            {acts: []string{"-svg", "x.svg"}},
	"jobs-out":       {acts: []string{"-jobs-out", "x.csv"}},
	"thrash-window":  {acts: []string{"-thrash-window", "1h"}},
	"buckets":        {acts: []string{"-buckets", "50"}},
	"jobs-out-format": {noop: []string{"-jobs-out-format", "csv"},
		acts: []string{"-jobs-out", "x.txt", "-jobs-out-format", "csv"}},
	"sweep-svg": {noop: []string{"-sweep-svg", "x.svg"}, acts: []string{"-sweep", "checkpoint=0s,30m", "-sweep-svg", "x.svg"}},
	"sweep-axes": {noop: []string{"-sweep", "checkpoint=0s,30m", "-sweep-axes", "evictions,thrash"},
		acts: []string{"-sweep", "checkpoint=0s,30m", "-sweep-svg", "x.svg", "-sweep-axes", "evictions,thrash"}},
	"checkpoint":         {acts: []string{"-checkpoint", "30m"}},
	"placement":          {acts: []string{"-placement", "best-fit"}},
	"preemptor-delay":    {acts: []string{"-policies", "priority", "-preemptor-delay", "5m"}},
	"eviction-budget":    {acts: []string{"-policies", "priority", "-eviction-budget", "2/6h"}},
	"checkpoint-save":    {noop: []string{"-checkpoint-save", "1m"}, acts: []string{"-sweep", "checkpoint=0s,30m", "-checkpoint-save", "1m"}},
	"checkpoint-restore": {noop: []string{"-checkpoint-restore", "1m"}, acts: []string{"-checkpoint", "30m", "-checkpoint-restore", "1m"}},
	"min-runtime": {noop: []string{"-policies", "priority", "-min-runtime", "be=1m"},
		acts: []string{"-policies", "priority,reserve", "-min-runtime", "be=1m"}},
	"preempt-min-runtime": {noop: []string{"-policies", "priority", "-preempt-min-runtime", "be=1m"},
		acts: []string{"-policies", "minruntime", "-preempt-min-runtime", "be=1m"}},
	"reclaim-method": {noop: []string{"-policies", "priority", "-reclaim-method", "queue"},
		acts: []string{"-policies", "timebased", "-reclaim-method", "queue"}},
	"expected-runtime": {noop: []string{"-policies", "minruntime,timebased", "-expected-runtime", "be=2h"},
		acts: []string{"-policies", "requeue", "-expected-runtime", "be=2h"}},
	"requeue-delay": {noop: []string{"-policies", "priority", "-requeue-delay", "1h"},
		acts: []string{"-requeue-delay", "1h"}},
	"requeue-contenders": {noop: []string{"-policies", "reserve", "-requeue-contenders", "higher"},
		acts: []string{"-policies", "priority,requeue", "-requeue-contenders", "higher"}},
	"max-lost-work": {noop: []string{"-policies", "minruntime", "-max-lost-work", "3600"},
		acts: []string{"-policies", "requeue", "-max-lost-work", "3600"}},
	"min-admit": {noop: []string{"-policies", "priority", "-min-admit", "1h"},
		acts: []string{"-policies", "timebased", "-min-admit", "1h"}},
	"newer-rule": {noop: []string{"-policies", "requeue", "-newer-rule=false"},
		acts: []string{"-newer-rule=false"}},
	"reserve-after": {noop: []string{"-policies", "minruntime", "-reserve-after", "1h"},
		acts: []string{"-policies", "reserve", "-reserve-after", "1h"}},
	"reserve-min-gpus": {noop: []string{"-policies", "reserve-naive", "-reserve-min-gpus", "4"},
		acts: []string{"-policies", "reserve", "-reserve-min-gpus", "4"}},
	"reservations": {noop: []string{"-policies", "timebased", "-reservations", "2"},
		acts: []string{"-policies", "reserve", "-reservations", "2"}},
	"allocation":     {acts: []string{"-allocation"}},
	"allocation-out": {noop: []string{"-allocation-out", "x.csv"}, acts: []string{"-allocation", "-allocation-out", "x.csv"}},
}

// TestNoOpFlags tests every flag against the one rule: a flag given where
// it cannot change the run is an error naming the flag and what it needs;
// given where it can, it is accepted. A flag new to the simulator fails
// here until it has a rule in flagNeeds and a case above.
func TestNoOpFlags(t *testing.T) {
	names := flagNames()
	if len(names) != len(noopCases) || len(names) != len(flagNeeds) {
		t.Errorf("%d flags, %d test cases, %d rules", len(names), len(noopCases), len(flagNeeds))
	}
	for _, name := range names {
		rule, ruled := flagNeeds[name]
		tc, cased := noopCases[name]
		if !ruled || !cased {
			t.Errorf("-%s: rule %v, test case %v: every flag needs both (nil rule: it acts on every run)", name, ruled, cased)
			continue
		}
		if (rule == nil) != (tc.noop == nil) {
			t.Errorf("-%s: a nil rule must go with no no-op case, and a rule with one", name)
		}
		if _, err := parseFlags(tc.acts, io.Discard); err != nil {
			t.Errorf("-%s acts in %q, yet: %v", name, tc.acts, err)
		}
		if tc.noop == nil {
			continue
		}
		_, err := parseFlags(tc.noop, io.Discard)
		if want := "simulate: -" + name + " needs "; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-%s is a no-op in %q: got %v, want an error with %q", name, tc.noop, err, want)
		}
	}
}

// flagNames returns the name of every flag of the flag set parseFlags
// parses with.
func flagNames() []string {
	var names []string
	var o options
	var r rawFlags
	newFlagSet(&o, &r).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// With -allocation only the flags the experiment reads (allocationReads)
// can change the run. Every other flag, given as in its acting case, is
// one error naming the flag and the replay (its own rule, about the
// replay, is not also reported); every flag it reads, given as in its
// acting case, is accepted. A new flag is an error with -allocation
// until it is listed there.
func TestNoOpAllocation(t *testing.T) {
	for _, name := range flagNames() {
		tc, ok := noopCases[name]
		if !ok {
			continue // TestNoOpFlags reports it
		}
		args := append([]string{"-allocation"}, tc.acts...)
		_, err := parseFlags(args, io.Discard)
		if slices.Contains(allocationReads, name) {
			if err != nil {
				t.Errorf("-%s acts with -allocation in %q, yet: %v", name, args, err)
			}
			continue
		}
		want := "simulate: -" + name + " needs the replay, not -allocation (the allocation experiment reads only -trace, -nodes, -placement, -seed, -runs, -parallel and -allocation-out): without it, it changes nothing"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-%s is a no-op in %q: got %v, want an error with %q", name, args, err, want)
		} else if n := strings.Count(err.Error(), "-"+name+" needs "); n != 1 {
			t.Errorf("-%s in %q: %d errors for it, want 1: %v", name, args, n, err)
		}
	}
}

// A -sweep of a setting the compared policies do not read is an error
// too: every point would be the same run.
func TestNoOpSweeps(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-policies", "priority", "-sweep", "min-admit=1h,2h"}, "-sweep min-admit needs a policy with time-based preemption"},
		{[]string{"-policies", "minruntime", "-sweep", "eviction-budget=none,2/6h", "-sweep", "requeue-delay=10m,1h"}, "-sweep requeue-delay needs a policy with the requeue pass"},
		{[]string{"-policies", "priority", "-sweep", "min-runtime.be=1m,1h"}, "-sweep min-runtime.be needs a policy with min-runtime protection"},
		{[]string{"-policies", "requeue", "-sweep", "reserve-after=10m,1h"}, "-sweep reserve-after needs a policy with reservations"},
	} {
		if _, err := parseFlags(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.args, err, tc.want)
		}
	}
	if _, err := parseFlags([]string{"-policies", "timebased", "-sweep", "min-admit=1h,2h"}, io.Discard); err != nil {
		t.Errorf("min-admit swept under timebased: %v", err)
	}
	// With -allocation, -sweep is the one error, not also its settings.
	_, err := parseFlags([]string{"-allocation", "-sweep", "min-admit=1h,2h"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-sweep needs the replay") || strings.Contains(err.Error(), "-sweep min-admit") {
		t.Errorf("-sweep min-admit with -allocation: %v", err)
	}
}
