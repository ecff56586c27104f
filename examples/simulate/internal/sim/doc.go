// Package sim is the simulator proper: a discrete-event loop (arrivals,
// completions, readiness timeouts, backoff ends, scheduling cycles) over
// the cluster state of package cluster, the policies it compares, and the
// metrics of each run.
//
// Files, by concept:
//
//   - sim.go: events, job states, the scheduling cycle and placement;
//   - queue.go: the pending queues, in backoff.QueueOrder order;
//   - preempt.go: the search for victims on one node;
//   - policy.go: one compared policy in a run, the adapter between the
//     simulator's state and package policies (which holds the run's
//     tenure.Policy and its Cycle); requeue.go: the expected-runtime
//     requeue pass (the Policy's nominator and Cycle.Requeue); backoff.go:
//     readiness backoff (backoff.State.Timeout, State.RequeueAt);
//     reserve_naive.go: the simulator's own head-of-line reservations
//     (reserve-naive);
//   - env.go: the run's tenure.Config and queue tree, shared by a
//     workload's runs; workload.go: [Prepare] (load knobs, window,
//     horizon) and [Simulate];
//   - metrics.go: what a run measures, into a report.Result;
//   - heap.go: the one binary heap every queue of the simulator uses.
//
// [Simulate] runs one policy over a prepared [Workload]; runs share
// nothing mutable, so they may run in parallel.
package sim
