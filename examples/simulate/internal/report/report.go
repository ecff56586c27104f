package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/waits"
)

// Report is everything one run prints: the input, the effective settings,
// the workload after the load knobs, and one Result per policy in the order
// they were requested.
type Report struct {
	Source   string         `json:"source"`
	Settings SettingsReport `json:"settings"`
	Workload Summary        `json:"workload"`
	Notes    []Note         `json:"notes,omitempty"`
	// Results (a single run), Runs (-runs) or Sweep (-sweep).
	Results []Result     `json:"results,omitempty"`
	Runs    *RunsReport  `json:"runs,omitempty"`
	Sweep   *SweepReport `json:"sweep,omitempty"`
}

// SettingsReport is every effective setting of a run.
type SettingsReport struct {
	MinRuntime        []QueueSetting `json:"min_runtime"`
	PreemptMinRuntime []QueueSetting `json:"preempt_min_runtime"`
	ReclaimMethod     string         `json:"reclaim_method"`
	ExpectedRuntime   []QueueSetting `json:"expected_runtime"`
	RequeueDelay      string         `json:"requeue_delay"`
	RequeueContenders string         `json:"requeue_contenders"`
	MaxLostWork       float64        `json:"max_lost_work"` // a requeue set's cap, GPU-seconds; 0: no cap
	// MaxLostWorkGrid is the grid of a swept max-lost-work ("{none,3600}"),
	// which the text header shows in place of MaxLostWork, the base value.
	MaxLostWorkGrid string `json:"max_lost_work_grid,omitempty"`
	MinAdmit        string `json:"min_admit"`
	NewerRule       bool   `json:"newer_rule"`
	ReserveAfter    string `json:"reserve_after"`
	Reservations    int    `json:"reservations"`
	ReserveMinGPUs  int    `json:"reserve_min_gpus,omitempty"`
	// PreemptorDelay ("0s": none) and EvictionBudget ("N/W", or "none").
	PreemptorDelay string `json:"preemptor_delay"`
	EvictionBudget string `json:"eviction_budget"`
	Placement      string `json:"placement"`
	// ArrivalJitter bounds the arrival shifts of a trace replicate (seeds
	// other than 1 on a trace; unused otherwise).
	ArrivalJitter     string  `json:"arrival_jitter"`
	ThrashWindow      string  `json:"thrash_window"`
	Checkpoint        string  `json:"checkpoint"`
	CheckpointSave    string  `json:"checkpoint_save"`
	CheckpointRestore string  `json:"checkpoint_restore"`
	Interval          string  `json:"cycle_interval"`
	Tail              string  `json:"tail"`
	Teams             int     `json:"teams"`
	NodeStride        int     `json:"node_stride"`
	Speedup           float64 `json:"speedup"`
	ScaleMix          bool    `json:"scale_mix"`
	Seed              int64   `json:"seed"`
	// SeedLast is the last seed of -runs (0 for a single run).
	SeedLast int64 `json:"seed_last,omitempty"`
	// Swept names the settings -sweep varies; their values above read
	// "{v1,v2,...}".
	Swept []string `json:"swept,omitempty"`
}

// MarkSwept shows the values of a swept setting in place of its base
// value, so the header never states a value only some runs used.
func (r *SettingsReport) MarkSwept(ax SweepAxis) {
	vals := "{" + strings.Join(ax.Values, ",") + "}"
	r.Swept = append(r.Swept, ax.Name)
	inList := func(list []QueueSetting, queue string) []QueueSetting {
		for i := range list {
			if list[i].Queue == queue {
				list[i].Duration = vals
				return list
			}
		}
		return append(list, QueueSetting{queue, vals})
	}
	setting, queue, _ := strings.Cut(ax.Name, ".")
	switch setting {
	case "min-runtime":
		r.MinRuntime = inList(r.MinRuntime, queue)
	case "preempt-min-runtime":
		r.PreemptMinRuntime = inList(r.PreemptMinRuntime, queue)
	case "expected-runtime":
		r.ExpectedRuntime = inList(r.ExpectedRuntime, queue)
	}
	switch ax.Name {
	case "min-admit":
		r.MinAdmit = vals
	case "requeue-delay":
		r.RequeueDelay = vals
	case "checkpoint":
		r.Checkpoint = vals
	case "reserve-after":
		r.ReserveAfter = vals
	case "preemptor-delay":
		r.PreemptorDelay = vals
	case "eviction-budget":
		r.EvictionBudget = vals
	case "reclaim-method":
		r.ReclaimMethod = vals
	case "max-lost-work":
		r.MaxLostWorkGrid = vals
	}
}

// QueueSetting is one queue=duration setting.
type QueueSetting struct {
	Queue    string `json:"queue"`
	Duration string `json:"duration"`
}

// Note is a remark about the run or one policy, as data: a kind (a stable
// label), the policy it concerns ("" for the whole run), a sentence, and
// counts where the remark is a tally.
type Note struct {
	Kind   string         `json:"kind"`
	Policy string         `json:"policy,omitempty"`
	Text   string         `json:"text,omitempty"`
	Counts map[string]int `json:"counts,omitempty"`
}

// Fragmentation is how much free GPU capacity could not be used, averaged
// over the window (time-weighted; sampled after scheduling cycles).
// Stranded: free GPU capacity that no waiting task could use on any single
// node (its node lacks CPU or memory for every waiting shape, or the GPU's
// free share is below every waiting share). Paper: the fragmentation
// measure of Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
// Workloads with Fragmentation Gradient Descent" (USENIX ATC 2023), which
// judges each node's free GPUs against the trace's most common task shapes
// weighted by popularity, waiting or not. Shares are of the free GPU
// capacity (ratio of the time integrals).
type Fragmentation struct {
	FreeGPUs      float64 `json:"free_gpus"`
	StrandedGPUs  float64 `json:"stranded_gpus"`
	StrandedShare float64 `json:"stranded_share_of_free"`
	PaperGPUs     float64 `json:"paper_fragmented_gpus"`
	PaperRate     float64 `json:"paper_fragmentation_rate"`
	// StrandedSeries: mean stranded GPUs per time bucket (as the other
	// series, from the window's start to the horizon).
	StrandedSeries []float64 `json:"stranded_series,omitempty"`
}

// Utilisation is GPU utilisation over the window, split into the part whose
// work counted and the part thrown away.
type Utilisation struct {
	Total  float64 `json:"total"`
	Useful float64 `json:"useful"`
	Wasted float64 `json:"wasted"`
}

// Goodput is the useful GPU-hours delivered from the window's start to the
// horizon (a fixed span, the same for every policy, longer than the
// utilisation window), split by the fate of the job that did the work:
// done by the horizon, or still in progress then (InProgressInfeasible of
// it by jobs that could not finish even alone). Done + InProgress is the
// goodput; once every policy drains before the horizon, a longer tail adds
// the same to each, so the gap between policies does not depend on it.
type Goodput struct {
	Done                 float64 `json:"done_gpu_hours"`
	InProgress           float64 `json:"in_progress_gpu_hours"`
	InProgressInfeasible float64 `json:"in_progress_infeasible_gpu_hours"`
}

// Evictions counts the jobs stopped for another job, by cause and by the
// victim's class, and the elastic jobs shrunk.
type Evictions struct {
	Total     int `json:"total"`
	Preempt   int `json:"preempt"`
	Reclaim   int `json:"reclaim"`
	TimeBased int `json:"time_based"`
	Requeue   int `json:"requeue"`
	LS        int `json:"ls"`
	Burstable int `json:"burstable"`
	BE        int `json:"be"`
	Shrinks   int `json:"shrinks"`
}

// Guards shows the eviction-churn settings at work (-preemptor-delay,
// -eviction-budget): how the evictions fall on jobs, over the jobs that
// ran (evictions of one job: its P99 and Max), the budget's holds (a job's
// exhausted budget denying an eviction, counted once per job and window),
// and the jobs whose victim search the preemptor delay put off (once per
// stint in the queue) with DelayHeldHours, the time from the first
// put-off to the delay's end or the job's start, whichever came first,
// summed over those that started: the longest the delay can have held
// them back.
type Guards struct {
	EvictionsPerJobP99 float64 `json:"evictions_per_job_p99"`
	EvictionsPerJobMax int     `json:"evictions_per_job_max"`
	BudgetHolds        int     `json:"budget_holds"`
	DelayedJobs        int     `json:"delayed_jobs"`
	DelayHeldHours     float64 `json:"delay_held_hours"`
}

// Fairness summarises held GPU time against fair share.
type Fairness struct {
	// Across is Jain's index of held/fair over every team queue, each
	// ratio capped at 1 (only shortfalls count), MinShare the smallest
	// held/fair.
	Across   float64 `json:"jain_across"`
	MinShare float64 `json:"min_share_of_fair"`
	// WithinClass: per class, Jain's index of held/fair-within-class over
	// its team queues, and the smallest such ratio.
	WithinClass []ClassFairness `json:"within_class"`
}

// ClassFairness is fairness among the team queues of one class.
type ClassFairness struct {
	Class    string  `json:"class"`
	Jain     float64 `json:"jain"`
	MinShare float64 `json:"min_share_of_fair"`
}

// QueueResult is one team queue's figures.
type QueueResult struct {
	Queue               string  `json:"queue"`
	Jobs                int     `json:"jobs"`
	HeldGPUHours        float64 `json:"held_gpu_hours"`
	FairGPUHours        float64 `json:"fair_gpu_hours"`
	FairInClassGPUHours float64 `json:"fair_in_class_gpu_hours"`
	ShareOfFair         float64 `json:"share_of_fair"`
	ShareOfFairInClass  float64 `json:"share_of_fair_in_class"`
	WaitP95             float64 `json:"wait_p95_s"`
	WaitP95LowerBound   bool    `json:"wait_p95_lower_bound,omitempty"`
	Evictions           int     `json:"evictions"`
}

// ClassWait is the wait-time distribution of one priority class, in seconds.
// Censored of the Jobs were unfinished at the end and enter with their
// wait so far; a percentile that one of those may have held down is marked
// as a lower bound.
type ClassWait struct {
	Class         string  `json:"class"`
	Jobs          int     `json:"jobs"`
	Censored      int     `json:"censored"`
	P50           float64 `json:"p50_s"`
	P95           float64 `json:"p95_s"`
	P99           float64 `json:"p99_s"`
	P50LowerBound bool    `json:"p50_lower_bound"`
	P95LowerBound bool    `json:"p95_lower_bound"`
	P99LowerBound bool    `json:"p99_lower_bound"`
}

// Result is one policy's outcome.
type Result struct {
	Policy                 string      `json:"policy"`
	Completed              int         `json:"completed"`
	Unfinished             int         `json:"unfinished"`
	Utilisation            Utilisation `json:"gpu_utilisation"`
	GoodputGPUHours        float64     `json:"goodput_gpu_hours"`
	Goodput                Goodput     `json:"goodput_split"`
	Evictions              Evictions   `json:"evictions"`
	Guards                 Guards      `json:"guards"`
	Thrash                 int         `json:"thrash"`
	LostGPUHours           float64     `json:"lost_gpu_hours"`
	LostInfeasibleGPUHours float64     `json:"lost_gpu_hours_infeasible_jobs"`
	Fairness               Fairness    `json:"fairness"`
	Wait                   []ClassWait `json:"wait"`
	// Waits: per class, the longest wait and the waits by job size (GPUs
	// requested), lower bounds marked (jobs unfinished at the end).
	Waits  []waits.ClassWaits `json:"waits_by_size"`
	Queues []QueueResult      `json:"queues"`
	Cycles int                `json:"cycles"`
	// Failed starts (synthetic workloads with -fail-rate): how many, the GPU
	// time they held, and jobs given up on.
	FailedStarts        int     `json:"failed_starts,omitempty"`
	FailedStartGPUHours float64 `json:"failed_start_gpu_hours,omitempty"`
	Deactivated         int     `json:"deactivated,omitempty"`
	Notes               []Note  `json:"notes,omitempty"`
	// Series: per time bucket from the window's start to the horizon, mean
	// GPU utilisation (0..1), its useful part, and mean number of waiting jobs.
	UtilSeries    []float64     `json:"util_series,omitempty"`
	UsefulSeries  []float64     `json:"useful_series,omitempty"`
	PendingSeries []float64     `json:"pending_series,omitempty"`
	Fragmentation Fragmentation `json:"fragmentation"`
	// Jobs holds the run's per-job events when -jobs-out asked for them
	// (written to that file, not to the report).
	Jobs []jobsout.Event `json:"-"`
}

// fmtDur renders seconds compactly: 0s, 45s, 12m, 3.5h, 2.1d. The unit is
// chosen after rounding, so 3590 s is 1.0h, not 60m.
func fmtDur(sec float64) string {
	if s := math.Round(sec); s < 60 {
		return strconv.FormatFloat(s, 'f', 0, 64) + "s"
	}
	if m := math.Round(sec / 60); m < 60 {
		return strconv.FormatFloat(m, 'f', 0, 64) + "m"
	}
	if h := math.Round(sec/360) / 10; h < 24 {
		return strconv.FormatFloat(h, 'f', 1, 64) + "h"
	}
	return strconv.FormatFloat(sec/86400, 'f', 1, 64) + "d"
}

// fmtBound is fmtDur, marked "≥" when the value is a lower bound.
func fmtBound(sec float64, lowerBound bool) string {
	if lowerBound {
		return "≥" + fmtDur(sec)
	}
	return fmtDur(sec)
}

func fmtQueueSettings(qs []QueueSetting) string {
	if len(qs) == 0 {
		return "none"
	}
	var parts []string
	for _, q := range qs {
		parts = append(parts, q.Queue+"="+q.Duration)
	}
	return strings.Join(parts, " ")
}

// header writes the report's header: input, workload, settings, notes.
func (r *Report) header(b *strings.Builder) {
	s, set := r.Workload, r.Settings
	fmt.Fprintf(b, "tenure what-if simulator — %s\n", r.Source)
	fmt.Fprintf(b, "workload: %d jobs", s.Jobs)
	if s.Gangs+s.Elastic > 0 {
		fmt.Fprintf(b, " (%d gangs, %d elastic)", s.Gangs, s.Elastic)
	}
	if s.Unschedulable > 0 {
		fmt.Fprintf(b, " (%d dropped: fit no node)", s.Unschedulable)
	}
	fmt.Fprintf(b, " on %d nodes / %d GPUs", s.Nodes, s.GPUs)
	if set.SeedLast > set.Seed {
		fmt.Fprintf(b, " (seed %d's; each seed draws its own)", set.Seed)
	}
	if s.NodeStride > 1 {
		fmt.Fprintf(b, " (one node in %d)", s.NodeStride)
	}
	if s.Speedup != 1 {
		fmt.Fprintf(b, ", arrivals sped up ×%g", s.Speedup)
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "infeasible: %d jobs could not finish before the end even alone", s.Infeasible)
	if s.Alive > 0 {
		fmt.Fprintf(b, " (%d alive at the end of the trace, replayed as running past it)", s.Alive)
	}
	if s.InfeasibleThinned > 0 {
		fmt.Fprintf(b, "; %d more thinned with the cluster (-scale-mix)", s.InfeasibleThinned)
	}
	b.WriteString("; they are left out of waits and unfinished\n")
	fmt.Fprintf(b, "window: %s from t=%ds (utilisation, fairness: to the last arrival); goodput over %s (to the horizon, %s after the last arrival, the same for every policy); offered GPU load %.2f; cycle every %s\n",
		fmtDur(float64(s.WindowEnd-s.WindowStart)), s.WindowStart, fmtDur(float64(s.Horizon-s.WindowStart)), set.Tail, s.OfferedLoad, set.Interval)
	fmt.Fprintf(b, "queues: %s\n", s.Queues)
	r.settings(b)
	for _, n := range r.Notes {
		if n.Policy != "" {
			fmt.Fprintf(b, "note: %s %s: %s\n", n.Policy, strings.ReplaceAll(n.Kind, "_", " "), n.Text)
		} else {
			fmt.Fprintf(b, "note: %s\n", n.Text)
		}
	}
	b.WriteString("\n")
}

// settings writes the header's settings lines.
func (r *Report) settings(b *strings.Builder) {
	set := r.Settings
	fmt.Fprintf(b, "settings: min-runtime %s (preempt and reclaim; reclaim method %s); preempt-min-runtime %s\n",
		fmtQueueSettings(set.MinRuntime), set.ReclaimMethod, fmtQueueSettings(set.PreemptMinRuntime))
	newer := "on"
	if !set.NewerRule {
		newer = "off"
	}
	lost := "none"
	if set.MaxLostWorkGrid != "" {
		lost = set.MaxLostWorkGrid + " GPU-s"
	} else if set.MaxLostWork > 0 {
		lost = strconv.FormatFloat(set.MaxLostWork, 'f', -1, 64) + " GPU-s"
	}
	resv := strconv.Itoa(set.Reservations)
	if set.ReserveMinGPUs > 0 {
		resv += fmt.Sprintf(" (jobs of %d GPUs or more)", set.ReserveMinGPUs)
	}
	fmt.Fprintf(b, "  expected-runtime %s; requeue-delay %s, contenders %s, max-lost-work %s; min-admit %s, newer rule %s; reserve-after %s, reservations %s\n",
		fmtQueueSettings(set.ExpectedRuntime), set.RequeueDelay, set.RequeueContenders, lost, set.MinAdmit, newer, set.ReserveAfter, resv)
	seed := fmt.Sprintf("seed %d", set.Seed)
	if set.SeedLast > set.Seed {
		seed = fmt.Sprintf("seeds %d..%d", set.Seed, set.SeedLast)
	}
	fmt.Fprintf(b, "  preemptor-delay %s; eviction-budget %s; thrash-window %s; checkpoint %s (save %s, restore %s); placement %s; %s\n",
		set.PreemptorDelay, set.EvictionBudget, set.ThrashWindow, set.Checkpoint, set.CheckpointSave, set.CheckpointRestore, set.Placement, seed)
	if len(set.Swept) > 0 {
		fmt.Fprintf(b, "  swept: %s ({...}: the values of the grid, one table row each)\n", strings.Join(set.Swept, ", "))
	}
}

// Tables selects the optional tables of the text report.
type Tables struct {
	Queues bool // the per-queue table
	Waits  bool // waits by class and job size
}

// WriteTable prints the report as aligned text tables, with the optional
// ones opt selects.
func WriteTable(w io.Writer, r *Report, opt Tables) error {
	var b strings.Builder
	r.header(&b)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	switch {
	case r.Sweep != nil:
		return writeSweep(w, r.Sweep)
	case r.Runs != nil:
		return writeRuns(w, r.Runs)
	}
	tables := []func(io.Writer, *Report) error{mainTable, evictionTable, guardsTable, fairnessTable, waitTable, fragTable, failedTable}
	if opt.Queues {
		tables = append(tables, queueTable)
	}
	if opt.Waits {
		tables = append(tables, sizeTable)
	}
	for _, t := range tables {
		if err := t(w, r); err != nil {
			return err
		}
	}
	for _, res := range r.Results {
		for _, n := range res.Notes {
			if _, err := fmt.Fprintf(w, "note (%s): %s\n", res.Policy, noteText(n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// noteText renders a note for the text report.
func noteText(n Note) string {
	s := strings.ReplaceAll(n.Kind, "_", " ")
	if n.Text != "" {
		s += ": " + n.Text
	}
	if len(n.Counts) > 0 {
		s += ": " + countsText(n.Counts)
	}
	return s
}

// countsText renders counts sorted by key: "a 1, b 2".
func countsText(counts map[string]int) string {
	keys := slices.Sorted(maps.Keys(counts))
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	return strings.Join(parts, ", ")
}

func newTab(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

func mainTable(w io.Writer, r *Report) error {
	fmt.Fprintln(w, "GPU time (util: over the window; goodput: useful GPU-h from the window's start to the horizon, of jobs done by then and of jobs still in progress; lost: thrown away by evictions over the run)")
	tw := newTab(w)
	fmt.Fprintln(tw, "policy\tGPU util\t= useful\t+ wasted\t\tgoodput GPU-h\t= jobs done\t+ in progress\t\tlost GPU-h\tby infeasible jobs\t")
	for _, res := range r.Results {
		u, g := res.Utilisation, res.Goodput
		fmt.Fprintf(tw, "%s\t%.1f%%\t%.1f%%\t%.1f%%\t\t%.1f\t%.1f\t%.1f\t\t%.1f\t%.1f\t\n", res.Policy, 100*u.Total, 100*u.Useful, 100*u.Wasted,
			res.GoodputGPUHours, g.Done, g.InProgress, res.LostGPUHours, res.LostInfeasibleGPUHours)
	}
	return tw.Flush()
}

func evictionTable(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "\njobs and evictions (thrash: runs shorter than %s; by cause, by the victim's class; shrinks: elastic jobs that lost tasks and kept running)\n", r.Settings.ThrashWindow)
	tw := newTab(w)
	fmt.Fprintf(tw, "policy\tdone\tunfinished\tcycles\t\tevictions\tthrash <%s\t\tpreempt\treclaim\ttime-based\trequeue\t\tLS\tBurstable\tBE\t\tshrinks\t\n", r.Settings.ThrashWindow)
	for _, res := range r.Results {
		e := res.Evictions
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\t%d\t%d\t\t%d\t%d\t%d\t%d\t\t%d\t%d\t%d\t\t%d\t\n", res.Policy, res.Completed, res.Unfinished, res.Cycles,
			e.Total, res.Thrash, e.Preempt, e.Reclaim, e.TimeBased, e.Requeue, e.LS, e.Burstable, e.BE, e.Shrinks)
	}
	return tw.Flush()
}

// guardsTable shows the preemptor delay and the eviction budget at work,
// when either is set.
func guardsTable(w io.Writer, r *Report) error {
	if r.Settings.PreemptorDelay == "0s" && r.Settings.EvictionBudget == "none" {
		return nil
	}
	fmt.Fprintf(w, "\nchurn guards (preemptor-delay %s, eviction-budget %s; evictions per job over the jobs that ran; holds: a job's exhausted budget denying evictions, once per job and window; delayed: jobs whose victim search the delay put off, held: from the first put-off to the delay's end or the start, summed)\n",
		r.Settings.PreemptorDelay, r.Settings.EvictionBudget)
	tw := newTab(w)
	fmt.Fprintf(tw, "policy\tevictions/job p99\tmax\t\tbudget holds\t\tdelayed jobs\theld\t\n")
	for _, res := range r.Results {
		g := res.Guards
		fmt.Fprintf(tw, "%s\t%g\t%d\t\t%d\t\t%d\t%s\t\n", res.Policy, g.EvictionsPerJobP99, g.EvictionsPerJobMax, g.BudgetHolds, g.DelayedJobs, fmtDur(3600*g.DelayHeldHours))
	}
	return tw.Flush()
}

// fairnessTable prints the fair-share figures: all queues, then each
// class. It has waitTable's shape (a header cell per class, a row per
// policy) but not its cells (a leading all-queues column here, a
// per-result maximum there): a shared helper would need a callback per
// cell kind to save a loop of eight lines, so each table stays written
// out whole.
func fairnessTable(w io.Writer, r *Report) error {
	fmt.Fprintln(w, "\nfair share: held GPU time / fair share per team queue — Jain's index over the queues (lowest ratio); all queues: ratios capped at 1, so only shortfalls count")
	tw := newTab(w)
	fmt.Fprint(tw, "policy\tall queues\t")
	if len(r.Results) > 0 {
		for _, cf := range r.Results[0].Fairness.WithinClass {
			fmt.Fprintf(tw, "within %s\t", cf.Class)
		}
	}
	fmt.Fprintln(tw)
	for _, res := range r.Results {
		f := res.Fairness
		fmt.Fprintf(tw, "%s\t%.3f (%.2f)\t", res.Policy, f.Across, f.MinShare)
		for _, cf := range f.WithinClass {
			fmt.Fprintf(tw, "%.3f (%.2f)\t", cf.Jain, cf.MinShare)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// waitTable prints the wait percentiles of each class. It has the shape
// of fairnessTable, written out on purpose (see there).
func waitTable(w io.Writer, r *Report) error {
	if len(r.Results) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nwait p50 / p95 / p99 / max by class (≥: a lower bound, held down by jobs unfinished at the end, which enter with their wait so far; -waits: by job size)")
	tw := newTab(w)
	fmt.Fprint(tw, "policy\t")
	for _, cw := range r.Results[0].Wait {
		fmt.Fprintf(tw, "%s (%d jobs)\t", cw.Class, cw.Jobs)
	}
	fmt.Fprintln(tw)
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%s\t", res.Policy)
		for _, cw := range res.Wait {
			fmt.Fprintf(tw, "%s / %s / %s / %s\t", fmtBound(cw.P50, cw.P50LowerBound), fmtBound(cw.P95, cw.P95LowerBound), fmtBound(cw.P99, cw.P99LowerBound), fmtMax(res, cw.Class))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// fragTable prints the fragmentation figures, averaged over the window.
func fragTable(w io.Writer, r *Report) error {
	if len(r.Results) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nfragmentation, mean over the window (stranded: free GPUs no waiting task can use on any single node; paper: the measure of Weng et al., USENIX ATC 2023, against the trace's 16 most common task shapes)")
	tw := newTab(w)
	fmt.Fprintln(tw, "policy\tfree GPUs\tstranded GPUs\t(of free)\tpaper's fragmented GPUs\t(rate)\t")
	for _, res := range r.Results {
		f := res.Fragmentation
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.0f%%\t%.1f\t%.0f%%\t\n", res.Policy, f.FreeGPUs, f.StrandedGPUs, 100*f.StrandedShare, f.PaperGPUs, 100*f.PaperRate)
	}
	return tw.Flush()
}

// fmtMax renders the longest wait of class in res.
func fmtMax(res Result, class string) string {
	for _, c := range res.Waits {
		if c.Class == class {
			return fmtBound(c.Max.V, c.Max.Censored)
		}
	}
	return "-"
}

// sizeTable prints, per policy and class, the waits by job size (GPUs
// requested): how many jobs, how many unfinished at the end and how many
// of those waiting (not running) then, p95, max.
func sizeTable(w io.Writer, r *Report) error {
	if len(r.Results) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nwaits by class and job size (GPUs requested: tasks × GPUs × share; unfinished: jobs not done at the end, whose waits so far are lower bounds; waiting: those of them not running then; KM: Kaplan–Meier p95, which counts unfinished jobs' waits as \"at least\"; ≥: a lower bound)")
	for _, res := range r.Results {
		if err := waits.WriteText(w, res.Policy, res.Waits, fmtDur); err != nil {
			return err
		}
	}
	return nil
}

func failedTable(w io.Writer, r *Report) error {
	failed := false
	for _, res := range r.Results {
		failed = failed || res.FailedStarts > 0
	}
	if !failed {
		return nil
	}
	fmt.Fprintln(w, "\nfailed starts (held GPU for the readiness timeout, then evicted)")
	tw := newTab(w)
	fmt.Fprintln(tw, "policy\tfailed starts\tGPU-h held\tgiven up\t")
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t\n", res.Policy, res.FailedStarts, res.FailedStartGPUHours, res.Deactivated)
	}
	return tw.Flush()
}

func queueTable(w io.Writer, r *Report) error {
	fmt.Fprintln(w, "\nper queue: jobs, GPU-hours held, fair share (all / within class), held/fair, wait p95 (≥: a lower bound), evictions suffered")
	tw := newTab(w)
	fmt.Fprintln(tw, "policy\tqueue\tjobs\theld\tfair\tfair in class\theld/fair\theld/fair in class\twait p95\tevictions\t")
	for _, res := range r.Results {
		for _, q := range res.Queues {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t%s\t%d\t\n", res.Policy, q.Queue, q.Jobs, q.HeldGPUHours,
				q.FairGPUHours, q.FairInClassGPUHours, q.ShareOfFair, q.ShareOfFairInClass, fmtBound(q.WaitP95, q.WaitP95LowerBound), q.Evictions)
		}
	}
	return tw.Flush()
}

// Summary describes the simulated workload in the report.
type Summary struct {
	Jobs          int     `json:"jobs"`
	Unschedulable int     `json:"unschedulable_dropped"`
	Nodes         int     `json:"nodes"`
	GPUs          int64   `json:"gpus"`
	NodeStride    int     `json:"node_stride"`
	Speedup       float64 `json:"speedup"`
	// Infeasible counts the jobs simulated that could not finish before the
	// horizon even if each ran alone from its arrival (Alive of them were
	// still running when the trace ended); InfeasibleThinned the jobs of
	// that kind left out by -scale-mix.
	Infeasible        int     `json:"infeasible"`
	Alive             int     `json:"alive_at_trace_end"`
	InfeasibleThinned int     `json:"infeasible_thinned,omitempty"`
	Gangs             int     `json:"gangs,omitempty"`
	Elastic           int     `json:"elastic,omitempty"`
	WindowStart       int64   `json:"window_start_s"`
	WindowEnd         int64   `json:"window_end_s"`
	Horizon           int64   `json:"horizon_s"`
	Queues            string  `json:"queues"`
	OfferedLoad       float64 `json:"offered_gpu_load"`
}
