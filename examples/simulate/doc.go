// Command simulate is a trace-driven what-if simulator: it replays a GPU
// cluster's workload through tenure's policies and compares them side by side.
//
//	go run ./examples/simulate                      # embedded Alibaba trace, every policy
//	go run ./examples/simulate -json                # the same, as JSON
//	go run ./examples/simulate -svg plot.svg        # plus utilisation and queue length over time
//	go run ./examples/simulate -policies priority,minruntime
//	go run ./examples/simulate -trace pods.csv -nodes nodes.csv
//	go run ./examples/simulate -synthetic -seed 7
//
// Every decision a tenure policy takes in the simulation is taken by the
// library (queuetree, runtime, eligibility, requeue); the simulator only owns
// the cluster, the clock and the event loop, exactly as an embedding
// scheduler would. A run is deterministic: the same input, flags and seed give
// the same report, byte for byte.
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
//     (Kubernetes' strictest QoS class) count as LS.
//   - Queues: one top-level queue per class (ls, burstable, be) and -teams
//     team queues under each (ls-a, ls-b, ...). A task's team is the FNV-1a
//     hash of its name modulo -teams: deterministic, and spreads each class
//     evenly. Tasks are submitted to their team queue.
//   - Arrival: creation_time.
//   - Runtime (the work a run must complete): deletion_time −
//     scheduled_time, or deletion_time − creation_time for the 897 tasks
//     that were never scheduled (pod_phase Pending: they waited that long
//     and were deleted; the simulator lets them run instead). An empty or zero
//     deletion_time means the task outlived the trace: it runs until the
//     trace's last timestamp. Runtimes are at least 1 s. A scheduled_time
//     before creation_time or a deletion_time before the start is an error.
//   - Demand: cpu_milli, memory_mib, and num_gpu GPUs with gpu_milli
//     thousandths of each: a GPU-sharing task (num_gpu 1, gpu_milli < 1000)
//     needs one GPU with that share free, a multi-GPU task num_gpu GPUs with
//     all of it free. A missing gpu_milli with num_gpu > 0 means whole GPUs.
//     gpu_spec (empty in this trace) is ignored.
//   - Nodes: sn, cpu_milli, memory_mib and gpu from the node list. A task
//     that fits on no node even when the cluster is empty is dropped and
//     counted in the report header.
//   - pod_phase is kept but not used: it is the pod's final phase, and a
//     Failed pod in this trace ran (a median of 219 s) before failing; there
//     are no restart counts or readiness times, so the trace carries no
//     failed starts and the backoff policy is not offered for it.
//
// # Load
//
// At its real scale the trace never asks for more than about 1% of its 6,212
// GPUs (66 GPUs and 56 tasks at the busiest moment), so no policy would ever
// have to act. The defaults for the embedded trace therefore shrink and speed
// it up, and the report header says so: -node-stride 40 keeps every 40th
// node (31 nodes, 147 GPUs, a sample across the trace's GPU models) and
// -speedup 10 divides the time between arrivals by 10; runtimes and sizes are
// unchanged. That gives an offered GPU load of about 0.8 with bursts well
// above 1. For any other input both default to 1.
//
// -synthetic replaces the trace with a seeded generator (-seed, -jobs): a
// 12-node, 72-GPU cluster and Poisson arrivals at an offered load of 1.2 (see
// synthesize for the distributions). It can also model failed starts
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
// In a cycle, pending jobs are taken in queue order (priority, then
// queue-order timestamp, then input order). A job is placed on the first node
// where it fits (GPU-sharing tasks on the fullest GPU that still fits them);
// if it fits nowhere, the policy may let it preempt: on every node, the
// running jobs the policy allows are taken in the policy's victim order until
// the job fits, and the node needing the fewest evictions (then the least
// work lost, then the lowest index) is used. A job that can neither fit nor
// preempt stays pending, and smaller jobs behind it may still start (no
// reservations). An evicted job goes back to the pending queue and later
// restarts from scratch: its work is lost. -checkpoint D models jobs that
// save their progress every D of work: an eviction then loses only the work
// since the last checkpoint, and the job resumes with the rest.
//
// # Policies
//
// -policies selects and orders the variants (default: all that apply to the
// input):
//
//   - priority: a pending job may evict any running job of strictly lower
//     priority; victims lowest priority first, then youngest (least work
//     lost). Nothing is protected; equal priorities never preempt.
//   - minruntime: priority, and every victim must pass
//     eligibility.MinRuntimeFilter: an eviction within one team queue is a
//     preempt, across queues a reclaim, resolved by runtime.Resolver with the
//     LCA method. -min-runtime sets queue=duration pairs for both (default
//     be=5m, burstable=15m, ls=30m on the class queues, inherited by their
//     teams; any queue of the tree may be set, e.g. ls-a=2h).
//   - requeue: minruntime plus the expected-runtime requeue. Each cycle with
//     pending jobs that fit nowhere, eligibility.Nominator nominates running
//     jobs past their expected runtime and requeue.Engine evicts them,
//     transactionally, when that lets a pending job of strictly higher
//     priority run (-requeue-contenders higher-or-equal lets equal
//     priorities contend too). Jobs opt in through the expected-runtime
//     annotation, derived from their queue: -expected-runtime (default be=1h,
//     burstable=4h, ls=1d; the nearest setting on the path from the team up
//     to its class applies). A requeued job gets the engine's not-before
//     annotation: a cooldown of -requeue-delay (default 30m). The engine's
//     victim filter is requeue.VictimMinRuntimeFilter.
//   - timebased: minruntime plus time-based same-priority preemption
//     (eligibility.PreemptionConfig, Kueue's LowerOrNewerEqualPriority with
//     -min-admit, default 2h): within a class (the class queue plays Kueue's
//     ClusterQueue), a pending job may also evict an equal-priority job that
//     eligibility.PreemptionConfig.Classify finds newer (queued after the
//     pending job: the simulator passes both jobs' queue-order timestamps,
//     eligibility.Candidate.Queued and PreemptionRequest.Timestamp, as
//     Kueue's code compares them) or expired (reserved longer than
//     -min-admit ago). Same-class victims are ordered by
//     eligibility.CandidateCompare. A job preempted by an equal-priority job
//     is re-queued behind its preemptor (requeue.QueueEntry.
//     SamePriorityPreempted through requeue.QueueOrder), so the two take
//     turns. History, measured on the default input: without that re-stamp
//     two jobs evicted each other every time min-runtime allowed (81,916
//     evictions, 1,877 unfinished jobs); judging "newer" by reservation
//     instead of queue order, a job restarting after an eviction was newer
//     than everyone queued before it (21,002 evictions, 818 unfinished).
//     What remains is the price of preemption without checkpoints: every
//     victim restarts from zero. With -checkpoint 30m the policy shortens
//     the BE wait tail instead. -newer-rule=false gives the library no
//     preemptor timestamp, which it documents as "no candidate is newer",
//     leaving only the minAdmit rotation.
//   - backoff (only for inputs with failed starts, i.e. -synthetic with
//     -fail-rate > 0): minruntime, and after a failed start the job's
//     requeue.RequeueState moves with RequeueState.Timeout under the default
//     requeue.BackoffConfig (Kueue's: 60s doubling to 1h, no limit, jitter
//     drawn from a source seeded with -seed); it is not admitted before
//     RequeueAt and queues by requeue.QueueOrder's Eviction timestamp. A
//     failed start holds its resources for the readiness timeout (5m) and is
//     then evicted; under every other policy it is retried at once and keeps
//     its place in the queue.
//
// # Metrics
//
//   - GPU util: allocated GPU time (shares count as fractions) over capacity ×
//     the window, which runs from the arrival of the first 1% of jobs to the
//     last arrival (a handful of months-old tasks would otherwise stretch it).
//     Work later lost to an eviction counts: it occupied the GPU.
//   - wait: time in the system not spent on work that counted, completion −
//     arrival − runtime (without checkpoints: arrival to the start of the run
//     that completed), p50/p95/p99 per class (nearest rank); the column
//     header counts the class's jobs.
//   - evictions; thrash: evictions of a job that had run less than the
//     min-runtime the resolver gives for that preemptor and victim, counted
//     for every policy whether or not it enforces it; lost GPU-h: GPU time
//     of evicted runs (since their last checkpoint).
//   - Jain: Jain's fairness index (Σx)²/(n·Σx²) over the team queues with GPU
//     work, where x is the queue's service ratio Σ gpu·runtime / Σ
//     gpu·(completion − arrival) over its GPU jobs: 1 when every queue's
//     jobs spent the same share of their time in the system running.
//   - done, unfinished, cycles. The simulation stops -tail (default 2d)
//     after the last arrival, so a policy that keeps jobs from finishing
//     cannot run forever; jobs not done by then are unfinished, and their
//     wait (until their current run started, or until the end if pending)
//     and service so far are included in the wait percentiles and Jain's
//     index as censored values.
//
// -svg plots GPU utilisation and the number of pending jobs over time, from
// the window's start to the end of the run, one line per policy; -json
// includes the same series.
package main
