package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/frag"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/progress"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/sim"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

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
	scaleMix     bool
	json         bool
	queues       bool
	waits        bool
	progress     progress.Mode
	jobsOut      string
	jobsFormat   jobsout.Format
	placement    frag.Policy
	cpSave       time.Duration
	cpRestore    time.Duration
	jitter       time.Duration
	parallel     int
	runs         int
	sweeps       []report.SweepAxis
	sweepSVG     string
	sweepAxes    [2]string
	svg          string
	buckets      int
	tail         time.Duration
	checkpoint   time.Duration
	settings     sim.Settings
	// leftOut lists the built-in defaults left out because their queue
	// does not exist with -teams ("min-runtime ls-c=0s").
	leftOut []string
	// alloc holds the allocation experiment's settings (allocation.go).
	alloc allocationOptions
}

// Defaults of the policy settings (see the package comment for why).
const (
	defaultMinRuntimeFlag = "be=5m,burstable=15m,ls=30m,be-a=1h,ls-c=0s"
	defaultPreemptFlag    = "be=1m,ls=10m"
	defaultExpectedFlag   = "be=1h,burstable=4h,ls=1d"
	defaultRequeueDelay   = "30m"
	defaultMinAdmit       = "2h"
	defaultReserveAfter   = "30m"
	defaultThrashWindow   = "30m"
)

// inheritValue removes a queue's setting (a default included) in a
// queue=duration flag, so the queue inherits from its parent.
const inheritValue = "inherit"

// mergeQueueDurations parses "queue=duration,..." with tenure's duration
// grammar (runtime.ParseDuration: 90s, 1.5h, 2d, 1w...) and merges it into
// the defaults: a queue given replaces its default, queue=inherit removes
// it, and every other default stays. The result is in queue-tree order.
func mergeQueueDurations(flagName, s string, defaults []sim.QueueDuration, teams int) ([]sim.QueueDuration, error) {
	set := map[string]sim.QueueDuration{}
	for _, d := range defaults {
		set[d.Queue] = d
	}
	var errs []error
	for _, item := range splitList(s) {
		q, d, ok := strings.Cut(item, "=")
		q, d = strings.TrimSpace(q), strings.TrimSpace(d)
		if !ok || q == "" {
			errs = append(errs, fmt.Errorf("simulate: -%s: %q: want queue=duration or queue=%s", flagName, item, inheritValue))
			continue
		}
		if d == inheritValue {
			delete(set, q)
			continue
		}
		dur, err := runtime.ParseDuration(d)
		if err != nil {
			errs = append(errs, fmt.Errorf("simulate: -%s %s: %w", flagName, q, err))
			continue
		}
		set[q] = sim.QueueDuration{Queue: q, D: dur}
	}
	// Tree order: each class queue, then its teams; unknown names last
	// (newEnv reports them).
	var out []sim.QueueDuration
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		names := []string{c.QueueName()}
		for t := range teams {
			names = append(names, trace.TeamName(c, t))
		}
		for _, n := range names {
			if d, ok := set[n]; ok {
				out = append(out, d)
				delete(set, n)
			}
		}
	}
	var unknown []string
	for n := range set {
		unknown = append(unknown, n)
	}
	slices.Sort(unknown)
	for _, n := range unknown {
		out = append(out, set[n])
	}
	return out, errors.Join(errs...)
}

// defaults parses a built-in queue=duration default of -flagName, leaving
// out the entries whose queue the tree lacks (a per-team default such as
// ls-c with -teams 2); o.leftOut records them for the report. A queue the
// user names that does not exist stays an error (newEnv).
func (o *options) defaults(flagName, def string) []sim.QueueDuration {
	all, _ := mergeQueueDurations(flagName, def, nil, o.teams)
	var out []sim.QueueDuration
	for _, d := range all {
		if o.teams >= 1 && !queueExists(d.Queue, o.teams) {
			o.leftOut = append(o.leftOut, fmt.Sprintf("%s %s=%s", flagName, d.Queue, runtime.FormatDuration(d.D)))
			continue
		}
		out = append(out, d)
	}
	return out
}

// queueExists reports whether the queue tree of teams teams per class has
// a queue of that name.
func queueExists(name string, teams int) bool {
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		if name == c.QueueName() {
			return true
		}
		for t := range teams {
			if name == trace.TeamName(c, t) {
				return true
			}
		}
	}
	return false
}

// newFlagSet defines every flag of the simulator on a new flag set, with
// the usage text: parseFlags parses with it, and TestNoOpFlags enumerates
// it, so no flag escapes the no-op rule (noop.go).
func newFlagSet(o *options, r *rawFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	o.inputFlags(fs)
	o.runFlags(fs, r)
	o.policyFlags(fs, r)
	o.allocationFlags(fs)
	fs.Usage = usage(fs)
	return fs
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var r rawFlags
	fs := newFlagSet(&o, &r)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var given []string
	fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	o.policiesSet = slices.Contains(given, "policies")
	if fs.NArg() > 0 {
		return o, fmt.Errorf("simulate: unexpected arguments %q (flags only; see -h)", fs.Args())
	}
	errs := o.convert(&r)
	o.resolveRuns()
	errs = append(errs, o.checkOutputs(&r)...)
	errs = append(errs, o.checkRun(&r)...)
	errs = append(errs, o.checkCosts()...)
	errs = append(errs, o.checkAllocation(fs, &r)...)
	errs = append(errs, o.checkNoOps(given)...)
	return o, errors.Join(errs...)
}

// rawFlags holds the flags read as text, which parseFlags converts (and
// checks) once every flag is parsed.
type rawFlags struct {
	sweepAxes, tail, checkpoint, minRT, preemptRT, method, expected *string
	delay, contenders, minAdmit, reserve, thrash                    *string
	preemptorDelay, budget                                          *string
	jobsFormat, placement, cpSave, cpRestore, jitter, progress      *string
	newer                                                           *bool
	// sweeps are the -sweep values, parsed after the flags so that a bad
	// one is one error line, not the usage text.
	sweeps []string
}

// inputFlags defines the flags that choose and shape the input.
func (o *options) inputFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.trace, "trace", "", "pod list CSV in the openb format (default: the embedded Alibaba trace)")
	fs.StringVar(&o.nodes, "nodes", "", "node list CSV in the openb format (default: the embedded Alibaba node list)")
	fs.BoolVar(&o.synthetic, "synthetic", false, "use the seeded synthetic workload instead of a trace")
	fs.Int64Var(&o.seed, "seed", 1, "seed of the synthetic generator and of the backoff policy's jitter")
	fs.IntVar(&o.synthJobs, "jobs", 2000, "number of synthetic jobs (the cluster grows with it: 12 nodes per 2,000 jobs)")
	fs.Float64Var(&o.failRate, "fail-rate", 0, "synthetic only: fraction of jobs whose early starts fail (enables the backoff policy)")
}

// runFlags defines the flags that choose what runs and what is printed.
func (o *options) runFlags(fs *flag.FlagSet, r *rawFlags) {
	fs.StringVar(&o.policies, "policies", "", "comma-separated policies to compare, from "+strings.Join(sim.PolicyNames(), ",")+" (default: all that apply to the input)")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "time between scheduling cycles (simulated)")
	fs.IntVar(&o.teams, "teams", 3, "team queues under each priority class")
	fs.IntVar(&o.nodeStride, "node-stride", 0, "keep one node in k, a sample stratified by node type, shrinking the cluster (0: 40 for the embedded trace, else 1)")
	fs.Float64Var(&o.speedup, "speedup", 0, "divide inter-arrival times by this factor, raising the load (0: 15 for the embedded trace, else 1)")
	fs.BoolVar(&o.scaleMix, "scale-mix", true, "keep only one in node-stride of the jobs that could not finish even alone (the long-running part of the mix shrinks with the cluster)")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON (a single run's always with its per-queue figures; -runs and -sweep with each seed's values)")
	fs.IntVar(&o.parallel, "parallel", goruntime.GOMAXPROCS(0), "simulations run at once (default: the number of cores); the output is the same whatever it is")
	fs.IntVar(&o.runs, "runs", 0, "repeat with this many seeds (-seed, -seed+1, ...; on a trace, replicates: see -arrival-jitter) and report each metric's mean and 95% interval (0: 10 when the replay samples a trace's nodes, -node-stride above 1 as on the embedded trace, and asks for no single-run output; else 1)")
	fs.Func("sweep", "vary a `setting=v1,v2,...` over a grid (give it twice for two settings): "+strings.Join(sweepSettable, ", "), func(v string) error {
		r.sweeps = append(r.sweeps, v)
		return nil
	})
	fs.StringVar(&o.sweepSVG, "sweep-svg", "", "with -sweep: write the trade-off plot to `FILE`")
	r.sweepAxes = fs.String("sweep-axes", "lost_gpu_hours,wait_p95_be_h", "with -sweep: the plot's `x,y` metrics, from "+strings.Join(report.MetricNames, ","))
	fs.BoolVar(&o.queues, "queues", false, "print the per-queue table (held against fair share, waits, evictions)")
	fs.BoolVar(&o.waits, "waits", false, "print waits by class and job size (GPUs requested): jobs, unfinished at the end, of those still waiting (not running), p95, longest")
	fs.StringVar(&o.jobsOut, "jobs-out", "", "write every job's arrival, starts (node, wait), evictions (cause, preemptor, lost work), shrinks (tasks left) and completion, per policy, to `FILE` (.csv or .jsonl)")
	r.jobsFormat = fs.String("jobs-out-format", "", "format of -jobs-out: csv or jsonl (default: from the file name)")
	r.progress = fs.String("progress", "auto", "progress and time left on stderr: auto (only on a terminal), always (also into a log: a line every 10s), never")
	fs.StringVar(&o.svg, "svg", "", "write a plot of utilisation and queue length over time to `FILE`")
	fs.IntVar(&o.buckets, "buckets", 200, "time-series resolution for -svg and -json")
}

// policyFlags defines the policies' settings and the run's timing.
func (o *options) policyFlags(fs *flag.FlagSet, r *rawFlags) {
	r.tail = fs.String("tail", "2d", "keep simulating this long after the last arrival (`duration`); jobs not done by then are reported unfinished")
	r.checkpoint = fs.String("checkpoint", "0s", "jobs save their progress every `duration` of work, so an eviction loses only the work since the last save (0s: restart from scratch)")
	r.cpSave = fs.String("checkpoint-save", "0s", "with -checkpoint: the time each checkpoint takes to write (`duration`); it lengthens every run")
	r.cpRestore = fs.String("checkpoint-restore", "0s", "with -checkpoint: the time a job evicted after a checkpoint takes to load it when it starts again (`duration`)")
	r.placement = fs.String("placement", "first-fit", "which node a task goes to among those it fits: first-fit (the lowest-numbered), best-fit (least free GPU left, then CPU) or frag-gradient (least growth of the trace paper's fragmentation measure); with -allocation, a list of "+strings.Join(allocationPolicyNames(), ",")+" (default: all)")
	r.jitter = fs.String("arrival-jitter", "5m", "trace replicates (-runs, or -seed other than 1): shift each arrival by up to ± this (`duration`); seed 1 is the trace as recorded")
	r.minRT = fs.String("min-runtime", "", "min-runtime per queue (preempt and reclaim), `queue=duration,...`, merged into the defaults "+defaultMinRuntimeFlag+" (queue="+inheritValue+" removes one)")
	r.preemptRT = fs.String("preempt-min-runtime", "", "preempt min-runtime per queue (an eviction by a higher-priority job of the victim's own team queue), `queue=duration,...`, overriding -min-runtime's for those queues, merged into the defaults "+defaultPreemptFlag+" (queue="+inheritValue+" removes one)")
	r.method = fs.String("reclaim-method", "lca", "how a reclaim's min-runtime resolves (`method`): lca (from the child of the lowest common ancestor) or queue (from the victim's queue)")
	r.expected = fs.String("expected-runtime", "", "expected runtime per queue for the requeue policy, `queue=duration,...`, merged into the defaults "+defaultExpectedFlag+" (queue="+inheritValue+" removes one)")
	r.delay = fs.String("requeue-delay", defaultRequeueDelay, "cooldown after a requeue (`duration`)")
	r.contenders = fs.String("requeue-contenders", "higher-or-equal", "who may take an over-running job's resources (`mode`): higher-or-equal, or higher (strictly higher priority, tenure's default, which preemption already covers)")
	fs.Float64Var(&o.settings.MaxLostWork, "max-lost-work", 0, "requeue policy: a set of victims that would throw away more than this many `GPU-seconds` of work (GPUs held times the time since the last checkpoint or start) is not committed (tenure's EngineConfig.MaxLostWork; 0: no cap)")
	r.newer = fs.Bool("newer-rule", true, "timebased: keep LowerOrNewerEqualPriority's \"newer\" rule; false leaves only minAdmit expiry")
	r.minAdmit = fs.String("min-admit", defaultMinAdmit, "minAdmitDuration of the time-based policy (`duration`, >= 1m)")
	r.reserve = fs.String("reserve-after", defaultReserveAfter, "reserve and reserve-naive policies: a job pending this long may hold a reservation (`duration`)")
	fs.IntVar(&o.settings.Reservations, "reservations", 1, "reserve and reserve-naive policies: at most this many jobs hold reservations at a time")
	fs.IntVar(&o.settings.ReserveMinGPUs, "reserve-min-gpus", 0, "reserve and reserve-naive policies: only jobs asking for at least this many `GPUs` in all (tasks × GPUs per task; a shared GPU counts one) hold reservations; 0: any job")
	r.preemptorDelay = fs.String("preemptor-delay", "0s", "every policy: a pending job may cause evictions (preemption, requeue) only once it has waited this long since its queue-order timestamp (`duration`; tenure.Config.PreemptorDelay, YuniKorn's preemption.delay; 0s: none)")
	r.budget = fs.String("eviction-budget", "none", "every policy: a job evicted N times within W is no victim until the oldest of those is W old (`N/W`, e.g. 3/6h; tenure.Config.EvictionBudget; none: no budget)")
	r.thrash = fs.String("thrash-window", defaultThrashWindow, "thrash counts evictions of runs shorter than this, for every policy (`duration`)")
}

// usage prints the usage text, the policies and the flags.
func usage(fs *flag.FlagSet) func() {
	return func() {
		fmt.Fprintf(fs.Output(), "usage: simulate [flags]\n\n%s\n\npolicies:\n", usageText)
		for _, p := range policies.Registry {
			fmt.Fprintf(fs.Output(), "  %-11s %s\n", p.Name, p.About)
		}
		fmt.Fprintf(fs.Output(), "\nflags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\n%s\n", noopNotice)
		fmt.Fprintf(fs.Output(), "\nThe mapping of the trace, the model and every metric: go doc ./examples/simulate\n")
	}
}

// convert converts the flags read as text into o's settings, returning
// every problem found.
func (o *options) convert(r *rawFlags) []error {
	var errs []error
	dur := func(name, v string) time.Duration {
		d, err := runtime.ParseDuration(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("simulate: -%s: %w", name, err))
		}
		return d
	}
	if o.tail = dur("tail", *r.tail); o.tail > maxTail {
		errs = append(errs, fmt.Errorf("simulate: -tail %s: want at most %s", runtime.FormatDuration(o.tail), runtime.FormatDuration(maxTail)))
	} else if err := wholeSeconds("tail", o.tail); err != nil {
		errs = append(errs, err)
	}
	o.checkpoint = dur("checkpoint", *r.checkpoint)
	o.cpSave, o.cpRestore = dur("checkpoint-save", *r.cpSave), dur("checkpoint-restore", *r.cpRestore)
	o.jitter = dur("arrival-jitter", *r.jitter)
	set := &o.settings
	set.RequeueDelay = dur("requeue-delay", *r.delay)
	set.MinAdmit = dur("min-admit", *r.minAdmit)
	set.ReserveAfter = dur("reserve-after", *r.reserve)
	set.ThrashWindow = dur("thrash-window", *r.thrash)
	set.PreemptorDelay = dur("preemptor-delay", *r.preemptorDelay)
	var budgetErr error
	if set.BudgetMax, set.BudgetWindow, budgetErr = parseBudget("eviction-budget", *r.budget); budgetErr != nil {
		errs = append(errs, budgetErr)
	}
	var err error
	if set.Method, err = parseMethod(*r.method); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -reclaim-method: %w", err))
	}
	defMin := o.defaults("min-runtime", defaultMinRuntimeFlag)
	if set.MinRuntime, err = mergeQueueDurations("min-runtime", *r.minRT, defMin, o.teams); err != nil {
		errs = append(errs, err)
	}
	defPre := o.defaults("preempt-min-runtime", defaultPreemptFlag)
	if set.PreemptMinRuntime, err = mergeQueueDurations("preempt-min-runtime", *r.preemptRT, defPre, o.teams); err != nil {
		errs = append(errs, err)
	}
	defExp := o.defaults("expected-runtime", defaultExpectedFlag)
	if set.Expected, err = mergeQueueDurations("expected-runtime", *r.expected, defExp, o.teams); err != nil {
		errs = append(errs, err)
	}
	set.NoNewer = !*r.newer
	return append(errs, o.convertNew(r)...)
}

// convertNew converts the sweeps, the placement, the progress mode and
// the export's format.
func (o *options) convertNew(r *rawFlags) []error {
	var errs []error
	for _, v := range r.sweeps {
		if ax, err := parseSweep(v); err != nil {
			errs = append(errs, err)
		} else if len(o.sweeps) == 2 {
			errs = append(errs, errors.New("simulate: -sweep: at most two settings"))
			break
		} else {
			o.sweeps = append(o.sweeps, ax)
		}
	}
	var err error
	if o.alloc.on {
		// checkAllocation reads -placement as the experiment's policies.
	} else if o.placement, err = replayPlacement(*r.placement); err != nil {
		errs = append(errs, err)
	}
	if o.progress, err = progress.ParseMode(*r.progress); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -progress: %w", err))
	}
	if o.jobsOut != "" {
		if o.jobsFormat, err = jobsout.FormatFor(o.jobsOut, *r.jobsFormat); err != nil {
			errs = append(errs, fmt.Errorf("simulate: -jobs-out: %w", err))
		}
	}
	return errs
}

// checkCosts checks the checkpoint costs and the arrival jitter.
func (o *options) checkCosts() []error {
	var errs []error
	for _, c := range []struct {
		name string
		d    time.Duration
	}{{"checkpoint-save", o.cpSave}, {"checkpoint-restore", o.cpRestore}, {"arrival-jitter", o.jitter}} {
		if c.d < 0 || c.d > maxTail {
			errs = append(errs, fmt.Errorf("simulate: -%s %s: want 0 to %s", c.name, runtime.FormatDuration(c.d), runtime.FormatDuration(maxTail)))
		} else if err := wholeSeconds(c.name, c.d); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// checkOutputs checks the flags that choose what is printed and how many
// runs there are.
func (o *options) checkOutputs(r *rawFlags) []error {
	var errs []error
	if ax := splitList(*r.sweepAxes); len(ax) != 2 || !slices.Contains(report.MetricNames, ax[0]) || !slices.Contains(report.MetricNames, ax[1]) {
		errs = append(errs, fmt.Errorf("simulate: -sweep-axes %q: want two of %s", *r.sweepAxes, strings.Join(report.MetricNames, ",")))
	} else {
		o.sweepAxes = [2]string{ax[0], ax[1]}
	}
	if o.runs < 1 || o.runs > 1000 {
		errs = append(errs, fmt.Errorf("simulate: -runs %d: want 1..1000 (or 0 for the default)", o.runs))
	}
	single := o.svg != "" || o.queues || o.waits || o.jobsOut != ""
	if len(o.sweeps) > 0 && single {
		errs = append(errs, errors.New("simulate: -sweep reports a table and -sweep-svg; -svg, -queues, -waits and -jobs-out are for single runs"))
	} else if o.runs > 1 && single {
		errs = append(errs, errors.New("simulate: -runs reports each metric's mean and interval; -svg, -queues, -waits and -jobs-out are for single runs"))
	}
	if len(o.sweeps) == 2 && o.sweeps[0].Name == o.sweeps[1].Name {
		errs = append(errs, fmt.Errorf("simulate: -sweep %s given twice", o.sweeps[0].Name))
	}
	return errs
}

// checkRun checks the remaining flags: the requeue contenders, timing,
// queues, load knobs, parallelism and the input.
func (o *options) checkRun(r *rawFlags) []error {
	var errs []error
	set := &o.settings
	switch *r.contenders {
	case "higher":
	case "higher-or-equal":
		set.RequeueEqual = true
	default:
		errs = append(errs, fmt.Errorf("simulate: -requeue-contenders %q: want higher or higher-or-equal", *r.contenders))
	}
	if o.interval < time.Second || o.interval > maxInterval || o.interval%time.Second != 0 {
		errs = append(errs, fmt.Errorf("simulate: -interval %v: want whole seconds, 1s..%s", o.interval, runtime.FormatDuration(maxInterval)))
	}
	if o.teams < 1 || o.teams > 64 {
		errs = append(errs, fmt.Errorf("simulate: -teams %d: want 1..64", o.teams))
	}
	errs = append(errs, validateSettings(*o)...)
	if o.nodeStride < 0 {
		errs = append(errs, fmt.Errorf("simulate: -node-stride %d: want >= 1 (or 0 for the default)", o.nodeStride))
	}
	if !(o.speedup == 0 || o.speedup >= 1 && o.speedup <= 1e6) {
		errs = append(errs, fmt.Errorf("simulate: -speedup %v: want 1..1e6 (or 0 for the default)", o.speedup))
	}
	if o.synthJobs < 1 || o.synthJobs > maxSynthJobs {
		errs = append(errs, fmt.Errorf("simulate: -jobs %d: want 1..%d", o.synthJobs, maxSynthJobs))
	}
	if o.parallel < 1 || o.parallel > 1024 {
		errs = append(errs, fmt.Errorf("simulate: -parallel %d: want 1..1024", o.parallel))
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
	}
	return errs
}

// validateSettings checks the policy settings of o with the library's own
// validation where it has one; parseFlags and every -sweep point use it.
// Each problem names the flag that set it, once.
func validateSettings(o options) []error {
	set := o.settings
	errs := []error{
		settingError("min-admit", policies.TimeBasedConfig(set).Validate()),
		settingError("requeue-delay", (requeue.EngineConfig{DefaultDelay: set.RequeueDelay}).Validate()),
		settingError("max-lost-work", (requeue.EngineConfig{MaxLostWork: set.MaxLostWork}).Validate()),
		settingError("preemptor-delay", (preemptordelay.Delay{Delay: set.PreemptorDelay}).Validate()),
		settingError("eviction-budget", (evictionbudget.Budget{Max: set.BudgetMax, Window: set.BudgetWindow}).Validate()),
	}
	if errs[2] == nil && math.IsInf(set.MaxLostWork, 1) {
		errs[2] = errors.New("simulate: -max-lost-work +Inf: want a finite number (0: no cap)")
	}
	if o.teams >= 1 && o.teams <= 64 {
		if _, err := sim.NewEnv(nil, o.teams, set); err != nil {
			errs = append(errs, err) // unknown queues, 0s expected runtime, ...
		}
	}
	if set.ThrashWindow <= 0 {
		errs = append(errs, fmt.Errorf("simulate: -thrash-window %s: want a positive duration", runtime.FormatDuration(set.ThrashWindow)))
	}
	if set.Reservations < 1 || set.Reservations > 1000 {
		errs = append(errs, fmt.Errorf("simulate: -reservations %d: want 1..1000", set.Reservations))
	}
	if set.ReserveMinGPUs < 0 {
		errs = append(errs, fmt.Errorf("simulate: -reserve-min-gpus %d: want >= 0", set.ReserveMinGPUs))
	}
	if set.ReserveAfter < 0 {
		errs = append(errs, fmt.Errorf("simulate: -reserve-after: want a duration >= 0"))
	}
	// The simulation runs in whole seconds: a fraction would be dropped
	// while the report printed the value as given.
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"checkpoint", o.checkpoint}, {"thrash-window", set.ThrashWindow}, {"reserve-after", set.ReserveAfter},
		{"preemptor-delay", set.PreemptorDelay}, {"eviction-budget", set.BudgetWindow}} {
		if err := wholeSeconds(d.name, d.d); err != nil {
			errs = append(errs, err)
		}
	}
	return oncePerFlag(errs)
}

// settingError is nil for a nil err, else a *sim.SettingError naming flag.
func settingError(flag string, err error) error {
	if err == nil {
		return nil
	}
	return &sim.SettingError{Flag: flag, Err: err}
}

// oncePerFlag returns the problems of errs (joined ones split, nils
// dropped) less each *sim.SettingError whose flag an earlier problem
// already named: the library's config check repeats the checks of the
// settings' own Validate methods, with the field's key.
func oncePerFlag(errs []error) []error {
	var out []error
	named := map[string]bool{}
	for _, e := range errs {
		for _, p := range sim.Unjoin(e) {
			var se *sim.SettingError
			if errors.As(p, &se) && se.Flag != "" {
				if named[se.Flag] {
					continue
				}
				named[se.Flag] = true
			}
			out = append(out, p)
		}
	}
	return out
}

// parseBudget parses an eviction budget, "N/W" (N evictions per window W)
// or "none" (no budget: 0, 0).
func parseBudget(flagName, s string) (int, time.Duration, error) {
	if s == "none" {
		return 0, 0, nil
	}
	n, w, ok := strings.Cut(s, "/")
	max, err := strconv.Atoi(n)
	if !ok || err != nil || max < 1 {
		return 0, 0, fmt.Errorf("simulate: -%s %q: want N/W (N >= 1 evictions per window W, e.g. 3/6h) or none", flagName, s)
	}
	d, err := runtime.ParseDuration(w)
	if err != nil {
		return 0, 0, fmt.Errorf("simulate: -%s %q: %w", flagName, s, err)
	}
	return max, d, nil
}

// formatBudget is parseBudget's inverse.
func formatBudget(max int, w time.Duration) string {
	if max == 0 {
		return "none"
	}
	return strconv.Itoa(max) + "/" + runtime.FormatDuration(w)
}

// wholeSeconds refuses a duration with a fraction of a second: the
// simulator's clock ticks in whole seconds, and a setting it would
// truncate (a 500ms checkpoint running as none) must not be reported as
// given.
func wholeSeconds(flagName string, d time.Duration) error {
	if d%time.Second != 0 {
		return fmt.Errorf("simulate: -%s %s: want whole seconds (the simulation runs in whole seconds)", flagName, d)
	}
	return nil
}

// Load knobs applied to the embedded trace by default. At its real scale
// the trace never asks for more than about 1% of its 6,212 GPUs (66 GPUs,
// 56 tasks at the busiest moment), so no policy would ever act; one node
// in 40 (31 nodes, 160 GPUs, stratified by node type) with inter-arrival
// times divided by 15 gives a busy cluster (offered load about 0.65 once
// the long-running jobs are thinned with the cluster).
const (
	embeddedNodeStride = 40
	embeddedSpeedup    = 15
)

// maxInterval bounds -interval: the simulation runs in whole seconds, and a
// scheduler that cycles less than daily is not a scheduler.
const maxInterval = 24 * time.Hour

// maxTail bounds -tail so simulated instants stay far inside time.Duration.
const maxTail = 10 * 365 * 24 * time.Hour

// maxSynthJobs bounds -jobs.
const maxSynthJobs = 10_000_000

// noBackoffNote says why the backoff policy is not simulated for the input
// the options name (one without failed starts).
func (o options) noBackoffNote() string {
	switch {
	case o.synthetic:
		return "-fail-rate is 0, so no start fails; use -fail-rate 0.1 to see it"
	case o.trace != "":
		return "a trace has no failed starts (pod_phase is each pod's final phase, " +
			"and the format has no restart counts or readiness times); use -synthetic -fail-rate 0.1 to see it"
	}
	return "the input has no failed starts " +
		"(a trace's pod_phase is each pod's final phase; the openb trace's Failed pods ran, a median of 219 s, before failing, " +
		"and it has no restart counts or readiness times); use -synthetic -fail-rate 0.1 to see it"
}

// sampledTraceRuns is the default number of replicates of a replay that
// samples a trace's nodes. One replay is one draw of the sample, the team
// assignment and the arrival order: a conclusion drawn from it can flip
// with the next. Ten is the fewest at which a sign test can reach p < 0.01
// (2/2^10 when all agree; with five, never below 0.06), and on the
// embedded trace ten take 17 to 33 s on two shared cores.
const sampledTraceRuns = 10

// resolveRuns fills -runs left at 0: sampledTraceRuns when the replay
// samples a trace's nodes (-node-stride above 1: the embedded trace by
// default) and asks for no output of a single run (-svg, -queues, -waits,
// -jobs-out), else 1. Left at 1: the whole cluster of a trace (nothing to
// sample; the team salt and the jitter are there with -runs), a synthetic
// workload (each seed is a new draw of the model, not a sample of a
// cluster: -runs gives several), and the allocation experiment (one seed
// per run, as the paper's).
func (o *options) resolveRuns() {
	if o.runs != 0 {
		return
	}
	o.runs = 1
	single := o.svg != "" || o.queues || o.waits || o.jobsOut != ""
	if !o.synthetic && !o.alloc.on && !single && resolvedStride(*o) > 1 {
		o.runs = sampledTraceRuns
	}
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

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parsePolicies(s string) ([]string, error) {
	var out []string
	for _, n := range splitList(s) {
		if !slices.Contains(sim.PolicyNames(), n) {
			return nil, fmt.Errorf("simulate: -policies: unknown policy %q (have %v)", n, sim.PolicyNames())
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("simulate: -policies: %q listed twice", n)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("simulate: -policies: empty (have %v)", sim.PolicyNames())
	}
	return out, nil
}

// load is the part of the options sim.Prepare reads.
func (o options) load() sim.Load {
	return sim.Load{NodeStride: o.nodeStride, Speedup: o.speedup, ScaleMix: o.scaleMix, Teams: o.teams,
		Interval: o.interval, Tail: o.tail, Checkpoint: o.checkpoint, Buckets: o.buckets, Seed: o.seed, Settings: o.settings,
		Placement: o.placement, CheckpointSave: o.cpSave, CheckpointRestore: o.cpRestore}
}

// parseMethod reads a reclaim method as KAI-Scheduler's
// reclaimResolveMethod plugin argument: "lca" or "queue".
func parseMethod(s string) (runtime.Method, error) {
	c, err := runtime.ParseConfig(map[string]string{"reclaimResolveMethod": s}, nil)
	return c.Method, err
}
