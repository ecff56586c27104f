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
//   - policy.go: the compared policies and every call into tenure's
//     decisions (candidate classes and order, min-runtime filter, scenario
//     validator); requeue.go: the expected-runtime requeue pass
//     (eligibility.Nominator and requeue.Engine); backoff.go: readiness
//     backoff; reserve.go: head-of-line reservations;
//   - env.go: the queue tree and min-runtime resolver shared by a
//     workload's runs; workload.go: [Prepare] (load knobs, window,
//     horizon) and [Simulate];
//   - metrics.go: what a run measures, into a report.Result;
//   - heap.go: the one binary heap every queue of the simulator uses.
//
// [Simulate] runs one policy over a prepared [Workload]; runs share
// nothing mutable, so they may run in parallel.
package sim
