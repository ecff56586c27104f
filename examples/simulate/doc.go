// Command simulate is a trace-driven what-if simulator: it replays a GPU
// cluster's workload through tenure's policies and compares them side by side.
//
//	go run ./examples/simulate                      # embedded Alibaba trace, every policy, 10 replicates
//	go run ./examples/simulate -runs 1              # one replay: the trace as recorded
//	go run ./examples/simulate -json                # the same, as JSON (each seed's values)
//	go run ./examples/simulate -queues              # one replay plus the per-queue table
//	go run ./examples/simulate -svg plot.svg        # one replay plus utilisation and queue length over time
//	go run ./examples/simulate -policies priority,minruntime -reclaim-method queue
//	go run ./examples/simulate -trace pods.csv -nodes nodes.csv
//	go run ./examples/simulate -synthetic -seed 7
//	go run ./examples/simulate -synthetic -runs 10   # mean and 95% interval per metric over 10 seeds
//	go run ./examples/simulate -sweep min-admit=30m,2h,8h -sweep-svg tradeoff.svg
//
// Every decision a policy takes in the simulation is taken by the library
// (queuetree, runtime, eligibility, requeue); the simulator owns only time,
// placement and bookkeeping, exactly as an embedding scheduler would. A run
// is deterministic: the same input, flags and seed give the same report,
// byte for byte. The report starts with every effective setting.
//
// # Layout
//
// main.go wires the parts together (flags.go, input.go, sweep.go,
// experiment.go: the grid of points, seeds and policies, parallel.go); the
// parts are internal packages:
//
//   - internal/trace: jobs, nodes, the openb parsers, the synthetic workload;
//   - internal/cluster: free resources per node and where tasks run;
//   - internal/policies: each compared policy as a tenure.Policy (one
//     tenure.Config per run) and the decisions made through its Cycle;
//   - internal/sim: the event loop, the policies' mechanisms (policy.go,
//     requeue.go, backoff.go, reserve_naive.go) and the metrics;
//   - internal/report: the report's data, text, JSON, plots, runs and sweeps.
//
// # Input
//
// The default input is the production GPU-cluster trace Alibaba published
// with the USENIX ATC 2023 paper "Beware of Fragmentation: Scheduling
// GPU-Sharing Workloads with Fragmentation Gradient Descent" (Weng et al.),
// from the alibaba/clusterdata repository, folder cluster-trace-gpu-v2023/csv,
// licensed Creative Commons Attribution 4.0 International (see
// data/README.md): 8,152 tasks and 1,213 GPU nodes, embedded with go:embed.
// -trace and -nodes read other files in the same CSV format (columns are
// found by header name; extra columns are ignored); every malformed line is
// reported with its line number (the first ten per file).
//
// The trace is mapped as follows.
//
//   - Priority: qos LS > Burstable > BE. The 7 tasks with qos Guaranteed
//     (Kubernetes' strictest QoS class) count as LS, High within it: they
//     share the LS queues and may preempt their team queue's other LS jobs
//     (see Preemption).
//   - Queues: one top-level queue per class (ls, burstable, be) and -teams
//     team queues under each (ls-a, ls-b, ...). A task's team is the FNV-1a
//     hash of its name modulo -teams: deterministic, and spreads each class
//     evenly. Tasks are submitted to their team queue.
//   - Arrival: creation_time.
//   - Runtime (the work a run must complete): deletion_time −
//     scheduled_time, or deletion_time − creation_time for the 897 tasks
//     that were never scheduled (pod_phase Pending: they waited that long
//     and were deleted; the simulator lets them run instead). Runtimes are
//     at least 1 s. A scheduled_time before creation_time or a deletion_time
//     before the start is an error.
//   - Pods alive at the end of the trace: an empty or zero deletion_time, or
//     one equal to the trace's last timestamp with pod_phase Running (34
//     pods in this trace). Their real runtime is unknown; the replay keeps
//     them running past its end (see Load).
//   - Demand: cpu_milli, memory_mib, and num_gpu GPUs with gpu_milli
//     thousandths of each: a GPU-sharing task (num_gpu 1, gpu_milli < 1000)
//     needs one GPU with that share free, a multi-GPU task num_gpu GPUs with
//     all of it free. A missing gpu_milli with num_gpu > 0 means whole GPUs.
//     gpu_spec (empty in this trace) is refused when set: GPU-model
//     constraints are not simulated, so such a trace is an error.
//   - Nodes: sn, cpu_milli, memory_mib and gpu from the node list. A task
//     that fits on no node even when the cluster is empty is dropped and
//     counted in the report header.
//   - pod_phase is otherwise not used: it is the pod's final phase, and a
//     Failed pod in this trace ran (a median of 219 s) before failing; there
//     are no restart counts or readiness times, so the trace carries no
//     failed starts and the backoff policy is not offered for it.
//
// # Load
//
// At its real scale the trace never asks for more than about 1% of its 6,212
// GPUs (66 GPUs and 56 tasks at the busiest moment), so no policy would ever
// have to act. The defaults for the embedded trace therefore shrink and speed
// it up, and the report header says so: -node-stride 40 keeps one node in
// 40 (31 nodes, 160 GPUs), a sample stratified by node type that keeps the
// whole cluster's mix (see Replicates), and -speedup 15 divides the time
// between arrivals by 15; runtimes and sizes are unchanged. For any other
// input both default to 1.
//
// Shrinking the cluster 40 times while keeping every job would make the
// long-running part of the mix 40 times larger relative to the cluster: at
// these defaults 54 jobs (34 of them alive at the end of the trace) could
// not finish before the end of the replay even if each ran alone from its
// arrival, and together they ask for 59 of the 160 GPUs (in the real
// cluster, 1% of its GPUs). So the job mix is scaled with the cluster
// (-scale-mix, on by default): of the jobs that could not finish even
// alone, one in -node-stride is kept (every k-th by arrival), the same
// share of the cluster as in the real one; every job that can finish is
// kept. The header counts the jobs that could not finish even alone (those
// kept and those thinned, and the pods alive at the end of the trace among
// them); they run and hold resources like any job, but are left out of the
// waits and of "unfinished", so no metric is dominated by jobs
// that no policy could finish. The result is an offered GPU load of about
// 0.65, with bursts well above 1.
//
// -synthetic replaces the trace with a seeded generator (-seed, -jobs): Poisson
// arrivals at an offered load of 0.9 on a cluster that grows with the job
// count (12 nodes, 72 GPUs per 2,000 jobs), so -jobs changes the size, not
// the load or the span. The load is below 1 so that a policy that wastes
// little can keep up; above 1 the backlog would grow without end and the
// waits would measure where the run is cut off. Its mix includes gangs
// (several whole-node tasks that must run together), elastic jobs (tasks
// that may be taken down to half), and in every class a fifth of High jobs
// (a team's urgent work); see trace.Synthesize. It can also model failed starts
// (-fail-rate), which enables the backoff policy.
//
// # Simulation
//
// A discrete-event simulation in whole seconds. Events (completions, then
// arrivals, then scheduling cycles at one instant; then insertion order) sit
// in one heap, so ties are broken deterministically. Scheduling cycles run on
// a grid of -interval (default 30s) but only when something changed: an
// arrival, a completion, an eviction, or an instant a policy decision named
// as its Until (a protection expiry, a cooldown end, a job reaching its
// expected runtime): months of trace cost a cycle per burst of activity.
//
// A cycle follows the order of KAI-Scheduler's actions. First allocation
// and preemption: pending jobs in queue order (backoff.QueueOrder: priority,
// then queue-order timestamp, then name) are placed where all their tasks
// fit, first fit task by task (GPU-sharing tasks on the fullest GPU that
// still fits them); a job that fits nowhere may preempt. Then the requeue
// pass (requeue policy), with the jobs still pending as contenders. Then the
// head-of-line reservation (reserve-naive policy). A job that can neither fit nor
// preempt stays pending, and jobs behind it may still start.
//
// Who may evict whom: a job of a higher class, from any queue (a reclaim
// across queues, a preempt within one); a High job, the other jobs of its
// class in its own team queue (a preempt: KAI-Scheduler orders a queue's
// jobs by priority); under the time-based policy an equal-priority job by
// the newer and expired rules, from any queue. A High job of one team
// queue and a normal job of another of the same class never evict each
// other: within a class no team outranks another. The requeue engine's
// contenders follow the same ranking.
//
// Preemption: for each task that does not fit, the nodes where evicting
// every candidate of a low enough class could make room are examined, at
// most 64 of them, from a start that depends on the preemptor (a cluster of
// up to 64 nodes, the embedded trace's 31 among them, is searched in full;
// schedulers bound their preemption dry runs likewise, kube-scheduler's
// DefaultPreemption stopping after a number of candidate nodes from a
// random offset; a note per policy counts the searches that stopped at
// that cap with candidate nodes left). On a node the candidates the policy
// allows are taken in the library's order
// (timebased.Compare) until the task fits, and the node whose
// victims' highest priority is lowest, then the fewest, then losing the least
// work, then the lowest index, is used. A victim is evicted whole — a gang
// frees all its tasks — except an elastic one, which may lose single tasks
// down to its minimum (a shrink: it keeps its progress and continues more
// slowly); whether a still-protected elastic job may lose a task is
// minruntime.Validator's decision. An evicted job goes back to the
// pending queue and later restarts from scratch: its work is lost.
// -checkpoint D models jobs that save their progress every D of work: an
// eviction then loses only the work since the last checkpoint. Saving can
// cost time (-checkpoint-save S: every run grows by S per checkpoint, the
// saved states come every D+S of run time, and S's share of the kept time
// is not goodput) and so can loading (-checkpoint-restore R: a job evicted
// after a checkpoint first spends R reloading, so its saved progress
// shrinks by R).
//
// -placement chooses the node among those a task fits: first-fit (the
// default: the lowest-numbered), best-fit (the least free GPU left, then
// CPU) or frag-gradient (the node whose fragmentation, by the trace paper's
// measure against the trace's most common task shapes, grows least — in
// the spirit of the paper's fragmentation-gradient descent). Within a node
// a GPU-sharing task takes the fullest GPU that fits it.
//
// # Policies
//
// -policies selects and orders the variants (default: all that apply to the
// input). Each is a tenure.Policy built for the run from one tenure.Config
// (the queue tree with each queue's min-runtime fields, the reclaim
// method, the requeue engine's settings, Kueue's default backoff), asked
// through a tenure.Cycle begun at the simulated instant
// (internal/policies). Every one classifies candidates with
// timebased.Config.Classify and orders them with
// timebased.Compare.
//
//   - priority: a pending job may evict running jobs of strictly lower
//     priority (Kueue's LowerPriority). Nothing is protected; equal
//     priorities never preempt.
//   - minruntime: priority, and every victim must pass
//     minruntime.Filter: an eviction within one team queue is a
//     preempt, across queues a reclaim, resolved by runtime.Resolver with
//     -reclaim-method (lca: from the child of the lowest common ancestor
//     toward the victim, KAI-Scheduler's default; queue: from the victim's
//     queue). -min-runtime sets queue=duration for both actions, merged into
//     the defaults be=5m, burstable=15m, ls=30m, be-a=1h, ls-c=0s: the team
//     settings make the methods differ (an LS job reclaiming from be-a is
//     held 5m by the LCA method, which resolves from the class queue be,
//     and 1h by the queue method) and the teams of a class differ, which the
//     within-class fairness shows. -preempt-min-runtime sets the preempt
//     min-runtime alone (a High job evicting its own team queue's jobs),
//     overriding -min-runtime's for the queues it names, merged into the
//     defaults be=1m, ls=10m: a team's urgent jobs wait less for its own
//     jobs than other queues' jobs do. queue=inherit removes a default; a
//     default whose queue does not exist (ls-c with -teams 2) is left out,
//     with a note.
//   - requeue: minruntime plus the expected-runtime requeue (KAI-Scheduler
//     PR #941): after allocation and preemption, expectedruntime.Nominator
//     nominates running jobs past their expected runtime and requeue.Engine
//     evicts them, transactionally, when that lets a job left pending run:
//     one engine run per cycle over every nominated job, so a contender may
//     be served by a set of victims (a whole node's for a whole-node job,
//     several nodes' for a gang), taken cheapest first by the engine's
//     cost rule (requeue.EngineConfig.VictimCost: the GPUs a victim holds
//     times the time since its last checkpoint (-checkpoint) or its start),
//     with no victim it can do without.
//     -max-lost-work caps that work per committed set, in GPU-seconds
//     (requeue.EngineConfig.MaxLostWork; default 0, no cap): a set that
//     would throw away more is not committed, and its victims keep running
//     (kept/lost_work in the requeue outcomes note) unless another
//     contender's set takes them.
//     Jobs opt in through the expected-runtime annotation, derived from
//     their queue: -expected-runtime (merged into be=1h, burstable=4h, ls=1d;
//     the nearest setting on the path from the team up applies). A requeued
//     job gets the engine's not-before annotation: a cooldown of
//     -requeue-delay (default 30m). The engine's victim filter is
//     requeue.VictimMinRuntimeFilter. Contenders: by default
//     (-requeue-contenders higher-or-equal) pending jobs of equal or higher
//     priority. With tenure's default, strictly higher, the pass can never
//     commit here: any victim it could take for a higher-priority job,
//     preemption in the same cycle already could (same filter, and expected
//     runtimes above the min-runtimes), so the row equals minruntime but for
//     the cycles its look-ups ask for; what
//     the requeue adds is turn-taking among equal priorities at the expected
//     runtime.
//   - timebased: minruntime plus time-based same-priority preemption
//     (timebased.Config, Kueue's LowerOrNewerEqualPriority with
//     -min-admit, default 2h): a pending job may also evict an
//     equal-priority job that Classify finds newer (queued after the pending
//     job: both jobs' queue-order timestamps are passed,
//     timebased.Candidate.Queued and timebased.Request.Timestamp, as
//     Kueue's code compares them) or expired (reserved longer than
//     -min-admit ago). A job preempted by an equal-priority job is re-queued
//     behind its preemptor (backoff.QueueEntry.SamePriorityPreempted through
//     backoff.QueueOrder), so the two take turns. -newer-rule=false gives the
//     library no preemptor timestamp, which it documents as "no candidate is
//     newer", leaving only the minAdmit rotation.
//   - reserve-naive: minruntime plus the simulator's own head-of-line
//     reservation (internal/sim/reserve.go): after a cycle, the
//     first job left pending that has waited -reserve-after (default 30m)
//     reserves one node per task (those it fits on with the most GPUs free),
//     and no other job may start or preempt there until it starts; at most
//     -reservations (default 1) jobs hold reservations at a time. It exists
//     because whole-node jobs can wait days while smaller jobs keep taking
//     the GPUs they would need.
//   - backoff (only for inputs with failed starts, i.e. -synthetic with
//     -fail-rate > 0): minruntime, and after a failed start the job's
//     backoff.State moves with backoff.State.Timeout under the default
//     backoff.Config (Kueue's: 60s doubling to 1h, no limit, jitter
//     drawn from a source seeded with -seed); it is not admitted before
//     its backoff.State's RequeueAt and queues by backoff.QueueOrder's
//     Eviction timestamp. A failed start holds its resources for the
//     readiness timeout (5m) and is then evicted; under every other policy
//     it is retried at once and keeps its place in the queue.
//
// Two settings guard every policy against eviction churn, both part of the
// run's tenure.Config and decided through the Cycle (off by default):
//
//   - -preemptor-delay D (tenure.Config.PreemptorDelay, YuniKorn's
//     preemption.delay): a pending job may cause evictions, by preemption
//     or through the requeue engine, only once D has passed since its
//     queue-order timestamp (allowed at exactly D);
//   - -eviction-budget N/W (tenure.Config.EvictionBudget): a job evicted N
//     times within the last W is no victim until the oldest of those
//     evictions is W old (it no longer counts at exactly W). Every
//     eviction the scheduler chooses (preempt, reclaim, time-based,
//     requeue) is written into the job's eviction-record annotation.
//
// With either set, the report adds a table: evictions per job (p99 and
// max over the jobs that ran), the budget's holds (a job's exhausted
// budget denying an eviction, counted once per job and window) and the
// jobs the delay put off, with the time it held them (from the first
// put-off to the delay's end or the start, summed). Both can be swept.
//
// # Metrics
//
// The window runs from the arrival of the first 1% of jobs to the last
// arrival (a handful of months-old tasks would otherwise stretch it).
//
//   - GPU util = useful + wasted: allocated GPU time (shares count as
//     fractions) over capacity × the window. Wasted is GPU time whose work
//     was thrown away: the stretch of an evicted run since its last
//     checkpoint (all of it without checkpoints) and the hold of a failed
//     start, counted where it was spent. Goodput GPU-h: the useful GPU-hours
//     delivered over one fixed span, the same for every policy and stated
//     in the header: from the window's start to the horizon (the last
//     arrival plus -tail), not to the last arrival, so work a policy merely
//     defers still counts. It is split by the fate of the job that did the
//     work: jobs done by the horizon, and jobs still in progress then (kept
//     work that has delivered nothing yet; for a job that could not finish
//     even alone, never will). Once every policy drains before the horizon,
//     a longer tail adds the same to each, so the gap between policies
//     does not depend on it; it is not utilisation restated (that covers
//     only the window).
//   - evictions, by cause and by the victim's class. Causes are exclusive:
//     requeue (the requeue engine); time-based (an equal-priority job held
//     its place longer than min-admit: the time-based policy's expired
//     picks, Kueue's InClusterQueueTimeBased); preempt (the victim is in the
//     preemptor's own team queue: KAI-Scheduler's preempt action, by a High
//     job or a time-based newer pick); reclaim (another queue). Shrinks,
//     tasks taken from an elastic job that keeps running, are counted
//     apart.
//   - thrash <W: evictions of runs shorter than -thrash-window (default
//     30m), the same reference for every policy.
//   - lost GPU-h: the wasted GPU time of evictions over the whole run, and
//     the part of it lost by jobs that could not finish even alone.
//   - fair share: at every instant each team queue's fair share of the GPUs
//     is computed from what its jobs ask for (running plus waiting): the
//     cluster's GPUs go to the classes in priority order, each taking what
//     its queues ask for, and a class's part is divided among its queues by
//     water-filling (equal weights, none above its demand). Over the window,
//     held/fair compares what a queue held with that share; "all queues"
//     is Jain's index (Σx)²/(n·Σx²) of those ratios, each capped at 1, and
//     their minimum: a queue above its share filled room that the queues
//     entitled to it could not use (strict priority entitles LS to its
//     whole demand, placeable or not), which wrongs no one, so only
//     shortfalls lower the index. Within a class the same water-filling
//     divides what the class actually held, which isolates fairness among
//     its teams from the priority between classes: "within LS" is Jain's
//     index of those ratios over the LS teams, uncapped (there the shares
//     add up to what the class held, so a queue above 1 took from a
//     class-mate; 1: every team got the same fraction of its share), and
//     the lowest ratio. -queues prints every queue's figures (always in
//     JSON).
//   - wait: time in the system not spent on work that counted, completion −
//     arrival − runtime (without checkpoints: arrival to the start of the
//     run that completed), p50/p95/p99 per class (nearest rank); the column
//     header counts the class's jobs, and max is the longest wait. A
//     figure marked ≥ is a lower bound: a job unfinished at the end (below)
//     entered at or below it with its wait so far, and had it finished
//     could have raised it. -waits prints (JSON always holds) the waits by
//     class and job size — the GPUs a job requests in all: 0, a share of
//     one, 1, 2, 3–4, 5–8, more — with each bucket's count, jobs still
//     waiting, p95 and longest wait, and per class the Kaplan–Meier p95,
//     which counts a still-waiting job as "at least" its wait so far.
//   - fragmentation, a time average over the window, sampled on a fixed
//     grid: the free GPUs that no waiting task can use on any single node
//     (stranded: the node lacks CPU or memory for every waiting shape, or
//     the GPU's free share is below every waiting share), and the measure
//     of Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
//     Workloads with Fragmentation Gradient Descent" (USENIX ATC 2023): a
//     node's free GPU capacity that a task shape cannot use (all of it when
//     the shape does not fit there or asks for no GPU, else the GPUs with
//     less free than the shape needs from one), averaged over the trace's
//     16 most common shapes weighted by popularity and summed over nodes;
//     both also as a share of the free GPUs.
//   - done, unfinished, cycles. The simulation stops -tail (default 2d)
//     after the last arrival, so a policy that keeps jobs from finishing
//     cannot run forever; jobs not done by then are unfinished, and their
//     wait (until their current run started, or until the end if pending)
//     is included in the wait percentiles as a censored value. Jobs that
//     could not finish even alone are in neither.
//
// The notes after the tables are tallies: the requeue engine's outcomes
// over the run by kind and reason, the time-based picks by candidate class,
// the reservations granted, the preemption searches that stopped at the
// node cap, and the elastic scenarios the validator allowed and refused. In JSON every note is an object (kind, policy, text,
// counts).
//
// -jobs-out FILE (.csv or .jsonl, or -jobs-out-format) writes, per
// policy, every job's arrival (class, queue, tasks, GPUs, work), each
// start (nodes, wait since it last queued), each eviction (cause,
// preemptor, lost GPU milli-seconds; a failed start has cause
// failed_start), each shrink of an elastic job (the tasks, GPUs and nodes
// it runs on after it, the preemptor), each completion, and the feasible
// jobs still waiting or running at the end with their wait so far: enough
// to recompute the headline metrics outside the tool, utilisation and
// goodput included.
//
// -svg, -sweep-svg and -jobs-out check their path before anything runs. A
// regular file is written atomically (a temporary file beside it, renamed
// when complete, removed if the run fails or is interrupted by SIGINT or
// SIGTERM); a symbolic link is followed to its target; a FIFO or a
// character device such as /dev/null is written directly, never replaced;
// a directory, block device or socket is refused. -progress always shows
// progress and the time left on stderr even when it is not a terminal
// (auto: only on a terminal).
//
// Every flag given, and every setting -sweep varies, must be able to change
// the run: one that cannot (-min-admit without the timebased policy,
// -reservations without reserve, -expected-runtime without requeue,
// -reclaim-method with only priority, -arrival-jitter without trace
// replicates, -jobs on a trace, -checkpoint-save without checkpoints, ...)
// is an error naming what it needs, before anything is simulated.
//
// Settings that make a run meaningless are warned about at once, on stderr
// and in the notes: an offered GPU load far above 1 (the queue then grows
// for the whole run) and a min-admit under 10m for the time-based policy.
//
// -svg plots GPU utilisation (allocated, and useful dashed), the number
// of waiting jobs and the stranded GPUs over time, from the window's start
// to the end of the run, one colour per policy; -json includes the same
// series.
//
// # Repetitions, sweeps and cores
//
// The simulations of a run (one per policy, seed and sweep point) are
// independent and run on -parallel goroutines (default: every core); the
// output is the same whatever that number is.
//
// -runs N repeats the run with seeds -seed .. -seed+N-1 and reports, per
// headline metric and policy, the mean and its 95% interval (Student's t
// with N-1 degrees of freedom; for counts, a bootstrap-t never narrower
// than Student's t and never below 0, seeded from the metric's name and
// the seeds alone, so the same runs give the same interval in every
// command: see the stats package for the coverage it was chosen by), and in JSON
// every seed's value. A policy's difference from the first policy is
// computed seed by seed (the policies of one seed share the workload) and
// tested with a paired t-test under Holm's step-down correction over all
// the differences at once (the header gives their number): "*" marks a
// difference that holds with a family-wise error of at most 5%. A figure
// that is a lower bound in any run stays marked ≥ in the mean and its
// interval, and its difference is not tested; a metric identical in every
// run is left out. A table of replicate support follows: for each metric
// and policy, on how many seeds the value is below, above or equal to the
// first policy's. On a trace the seeds are replicates (see Replicates).
// The header then gives the seed range, and its workload line is the first
// seed's (each seed draws its own workload). -svg, -queues, -waits and
// -jobs-out, views of a single run, are refused with -runs and -sweep.
//
// -runs defaults to 10 when the replay samples a trace's nodes (-node-stride
// above 1, as on the embedded trace) and none of those single-run views is
// asked for; otherwise to 1. One replay is one draw of the node sample, the
// team assignment and the arrival order, and a conclusion drawn from it can
// flip with the next; ten is the fewest at which a sign test over the
// replicates can reach p < 0.01 (with all ten agreeing, p = 2/2^10), where
// five can never go below 0.06. The default run, every policy over ten
// replicates, takes 17 to 33 s on two shared cores. A trace given with
// -trace and -nodes replays the whole cluster by default: there is no sample
// to vary, so one run (the team salt and jitter are there with -runs). A
// synthetic workload's seed is a new draw of the model, not a sample of a
// cluster; it stays at one run, and -runs asks for more.
//
// # Replicates
//
// On a trace, seed 1 is the trace as recorded and every other seed is a
// replicate that draws three things (package internal/replica):
//
//   - the node sample. Nodes are grouped into strata by GPU model, GPU
//     count and size class (the power of two at or below the node's
//     milli-CPUs, and the same for its memory in MiB): on the embedded
//     node list, 15 strata from 549 G2 8-GPU nodes down to one V100 8-GPU
//     node of a size no other has. The sample keeps ⌈n/k⌉ of the n nodes
//     (-node-stride k; 31 of 1,213 at 40), each stratum its proportional
//     share rounded by largest remainder; which nodes of a stratum is the
//     seed's draw (uniform, without replacement). Seed 1 keeps the nodes of
//     each stratum evenly spaced through it in list order. So every
//     replicate has the same node types in the same numbers (the default:
//     14 G2, 10 T4 2-GPU, 3 P100 2-GPU of the small size, 1 G3, 1 V100
//     4-GPU, 1 P100 2-GPU of the large size, 1 V100-32GB 8-GPU, 160 GPUs)
//     and differs in which nodes of the trace it replays, which matters
//     only through the nodes' names and order (placement's tie-breaks);
//   - the team salt: a salt mixed into the hash that assigns each job to a
//     team queue;
//   - the arrival jitter: a shift of each arrival, uniform within
//     ±-arrival-jitter (default 5m), never before 0.
//
// The trade-off. A sample of 31 nodes cannot hold a node type with fewer
// than about 20 nodes in the cluster: the eight rarest strata of the
// embedded list (V100 1-GPU, T4 4-GPU, V100-32GB 4-GPU, the V100 8-GPU
// nodes, P100 1-GPU, the smallest P100 2-GPU, A10: 60 nodes, 196 of the
// 6,212 GPUs) get a share below one half, lose the largest-remainder
// rounding, and are absent from every replicate; jobs that fit only on them are dropped as unschedulable (the
// header counts them). Stratification keeps the mix of the types it can
// hold exactly, where one node in 40 from an offset gave between 30 and 31
// nodes and 131 to 188 GPUs depending on the offset; it keeps the mix, not
// the topology (which racks or pools the nodes sat in is not in the trace).
// Replicates vary the sample within that mix, the team assignment and
// the arrival order: they are not independent draws of new workloads, so an
// interval over them says how much a conclusion depends on those choices,
// not how a different cluster would fare.
//
// The alternative is to replay the whole cluster and scale the workload to
// load it. The trace cannot load 1,213 nodes by speed-up alone: at
// -node-stride 1 -speedup 600 the arrivals fall within 1.3 h, shorter than
// most jobs' runtimes, and the offered GPU load is 0.17, with no eviction
// under any policy. Loading it would take about 40 copies of the workload,
// time-shifted: a workload the trace did not record, and 40 times the jobs
// to simulate per replicate. The sample keeps the recorded jobs and their
// arrival pattern and costs about 1.7 s a replicate for every policy.
//
// -sweep setting=v1,v2,... (once or twice, for a grid of two settings) runs
// every point of the grid with the chosen policies (and every -runs seed)
// and prints a row per point and policy, led by the metric the first swept
// setting acts on (preempt evictions for a preempt min-runtime, time-based
// evictions for min-admit, lost GPU-hours for checkpoint, the longest wait
// for reserve-after, ...) and its difference from the grid's first point,
// paired by seed and tested under Holm's correction over those
// differences; -sweep-svg draws the trade-off,
// one labelled point per row at two headline metrics (-sweep-axes, default
// lost GPU-hours against the BE p95 wait). Sweepable settings: the
// min-runtime, preempt min-runtime or expected runtime of one queue
// (min-runtime.be-a=...), min-admit, requeue-delay, checkpoint,
// reserve-after, preemptor-delay, eviction-budget, reclaim-method,
// max-lost-work (GPU-seconds, or none). Every
// point is validated, with the
// library's errors, before anything runs, and the header shows each swept
// setting's grid ({30m,2h,8h}) in place of its base value. Each point's
// workload (per seed) is prepared when its first simulation starts and
// dropped after its last, so memory follows the simulations running at
// once, not the size of the grid.
//
// # Cost
//
// A run costs time linear in the jobs: placement finds the first node a
// task fits through a segment tree over the nodes (and another per class
// bounds what evictions could free, for the preemption search); pending
// jobs wait in buckets of one team queue, priority and shape, so a cycle
// visits the non-empty buckets, not every pending job; the preemption search is bounded as
// above and remembers, per node, preemptors that failed there until the
// node changes or a denial there may lift; the requeue pass evaluates a job
// when it starts and again at the instant its decision names, keeps
// nominated jobs until they stop, and offers the engine every nominated
// job at once (a set may need several), with the model's fit test and
// shapes (requeue.FitBounder, requeue.Shaper). The shortcuts are tested to decide
// exactly what the plain computation decides. The simulator README has a
// growth table up to a million jobs.
//
// Memory: a job's state is 120 bytes per simulation (and, once started,
// its tasks' nodes and GPUs), plus its trace record, shared by the
// simulations, and its waits. The process runs
// under a soft memory limit of 768 MiB (runtime/debug.SetMemoryLimit)
// unless the GOMEMLIMIT environment variable sets one: the garbage
// collector then works harder near the limit rather than letting the heap
// grow to twice what is live. A run that keeps more than that live still
// completes, spending more of its time collecting; raise GOMEMLIMIT for
// it (GOMEMLIMIT=off lifts the limit).
package main
