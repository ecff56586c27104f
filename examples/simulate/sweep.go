package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"

	"github.com/tenurepolicy/tenure/runtime"
)

// A sweep runs the simulation over a grid of one or two settings
// (-sweep name=v1,v2,... given once or twice), every point with the chosen
// policies (and, with -runs, every seed), and reports one row per point and
// policy, plus a trade-off plot (-sweep-svg). The settings a sweep can vary
// are those an operator chooses: min-runtime or expected runtime of one
// queue, min-admit, the requeue delay, the checkpoint interval, the reserve
// policy's wait, the preemptor delay, the eviction budget, the reclaim
// method, and the requeue policy's cap on the work a set throws away.

// sweepSettable lists the settings -sweep accepts (queue-qualified ones
// take ".queue").
var sweepSettable = []string{"min-runtime.QUEUE", "preempt-min-runtime.QUEUE", "expected-runtime.QUEUE", "min-admit", "requeue-delay", "checkpoint", "reserve-after", "preemptor-delay", "eviction-budget", "reclaim-method", "max-lost-work"}

// parseSweep parses "name=v1,v2,...".
func parseSweep(s string) (report.SweepAxis, error) {
	name, vals, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	ax := report.SweepAxis{Name: name, Values: splitList(vals)}
	if !ok || name == "" || len(ax.Values) == 0 {
		return ax, fmt.Errorf("simulate: -sweep %q: want name=value,value,... (names: %s)", s, strings.Join(sweepSettable, ", "))
	}
	for i, v := range ax.Values {
		if slices.Contains(ax.Values[:i], v) {
			return ax, fmt.Errorf("simulate: -sweep %s: value %q listed twice", name, v)
		}
	}
	return ax, nil
}

// apply sets the swept setting name to value in o.
func (o *options) apply(name, value string) error {
	dur := func() (d time.Duration, err error) {
		d, err = runtime.ParseDuration(value)
		if err != nil {
			err = fmt.Errorf("simulate: -sweep %s: %w", name, err)
		}
		return d, err
	}
	var err error
	switch {
	case strings.HasPrefix(name, "min-runtime."):
		o.settings.MinRuntime, err = mergeQueueDurations("sweep "+name, strings.TrimPrefix(name, "min-runtime.")+"="+value, o.settings.MinRuntime, o.teams)
	case strings.HasPrefix(name, "preempt-min-runtime."):
		o.settings.PreemptMinRuntime, err = mergeQueueDurations("sweep "+name, strings.TrimPrefix(name, "preempt-min-runtime.")+"="+value, o.settings.PreemptMinRuntime, o.teams)
	case strings.HasPrefix(name, "expected-runtime."):
		o.settings.Expected, err = mergeQueueDurations("sweep "+name, strings.TrimPrefix(name, "expected-runtime.")+"="+value, o.settings.Expected, o.teams)
	case name == "min-admit":
		o.settings.MinAdmit, err = dur()
	case name == "requeue-delay":
		o.settings.RequeueDelay, err = dur()
	case name == "checkpoint":
		o.checkpoint, err = dur()
	case name == "reserve-after":
		o.settings.ReserveAfter, err = dur()
	case name == "preemptor-delay":
		o.settings.PreemptorDelay, err = dur()
	case name == "eviction-budget":
		o.settings.BudgetMax, o.settings.BudgetWindow, err = parseBudget("sweep "+name, value)
	case name == "max-lost-work":
		if value == "none" {
			o.settings.MaxLostWork = 0
		} else if o.settings.MaxLostWork, err = strconv.ParseFloat(value, 64); err != nil {
			err = fmt.Errorf("simulate: -sweep %s: %q: want GPU-seconds or none", name, value)
		}
	case name == "reclaim-method":
		if o.settings.Method, err = parseMethod(value); err != nil {
			err = fmt.Errorf("simulate: -sweep %s: %w", name, err)
		}
	default:
		err = fmt.Errorf("simulate: -sweep %s: not a setting a sweep can vary (have %s)", name, strings.Join(sweepSettable, ", "))
	}
	return err
}

// sweepCase is one point of the grid: its label and options.
type sweepCase struct {
	label  string
	values []string
	opts   options
}

// sweepCases expands the axes into the grid's points, first axis
// slowest, validating every point's settings with the checks the flags get.
func sweepCases(o options, axes []report.SweepAxis) ([]sweepCase, error) {
	cases := []sweepCase{{opts: o}}
	for _, ax := range axes {
		var next []sweepCase
		for _, c := range cases {
			for _, v := range ax.Values {
				n := c
				n.values = append(slices.Clone(c.values), v)
				if n.label != "" {
					n.label += " "
				}
				n.label += ax.Name + "=" + v
				if err := n.opts.apply(ax.Name, v); err != nil {
					return nil, err
				}
				next = append(next, n)
			}
		}
		cases = next
	}
	for _, c := range cases {
		if errs := validateSettings(c.opts); len(errs) > 0 {
			return nil, fmt.Errorf("simulate: -sweep point %s: %w", c.label, errors.Join(errs...))
		}
	}
	return cases, nil
}

// seedList returns n seeds from first.
func seedList(first int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = first + int64(i)
	}
	return out
}
