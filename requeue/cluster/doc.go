// Package cluster is tenure's in-memory reference [requeue.Model]: nodes
// with [Resources] vectors (millicores, bytes, GPUs), jobs ([Job]) whose
// tasks request vectors with a gang minimum, and deterministic first-fit
// placement in the order the nodes were given. It sits beside the
// conformance kit [github.com/tenurepolicy/tenure/requeue/requeuetest] the
// way testing/fstest.MapFS sits beside fstest.TestFS: tests and
// examples/quickstart use it, and a small scheduler can too.
//
// [Model]'s documentation is the contract: the placement rule and its
// cost, the journaling rules an engine's rollback depends on, and how
// memory follows the registered jobs. [Model.Snapshot] returns the
// observable state as plain maps, which tests compare (with
// reflect.DeepEqual or go-cmp); [Model.Check] verifies the internal
// invariants.
//
// Model's first fit rests on a segment tree of the nodes' free vectors,
// each range summarised by its component-wise maximum, which finds the
// first node that holds a request in O(log nodes) unless many ranges hold
// it while none of their nodes does (a fragmented cluster), O(nodes) at
// worst; and on a bounded memory of the requests that fitted no node, each
// with the point in a log of the nodes freed since, so that asking again
// costs O(1) plus the nodes freed since: the fragmented worst case is paid
// once, not at every victim an engine tries.
//
// # Hints
//
// The engine's optional hints let it skip work; the conformance kit checks
// each of them on any model that offers it.
//
//   - [Model.Shape] ([requeue.Shaper]): a key of the gang minimum and the
//     task requests, so one failed attempt stands for every pending job of
//     the shape. O(tasks); allocates the key.
//   - [Model.MayFit] ([requeue.FitBounder]): a conservative fit test from
//     the free total and per-node maxima, with the room a victim's
//     eviction would leave. O(victim tasks² + job tasks); no allocation.
//   - [Model.MayFitAfter] ([requeue.SetFitBounder]): the same tests with
//     every victim of a set released, each node's room taken apart, so
//     that a false answer holds for every subset of the victims. O(t log
//     t + job tasks) for victims with t placed tasks; no allocation once
//     the model's scratch space has grown.
//   - [Model.MayEverFit] ([requeue.CapacityBounder]): false for a pending
//     job that no state of the cluster can hold, even with every running
//     job evicted: fewer than its gang minimum of tasks fit the
//     component-wise largest node capacity, or its smallest tasks together
//     exceed the sum of the capacities. [Model.AddJob] decides it once
//     (the nodes never change after [New]) and records it in the job's
//     lower bound, which [Model.Place] and MayFit test first, so such a
//     job also costs Place and MayFit one comparison. O(1): one lookup.
//   - [Model.Domains] (the engine's locality hint, [requeue.Localizer]): the
//     nodes a running job occupies, in node order. A node is the model's
//     unit of locality: an eviction frees resources only on its job's
//     nodes, so a contender that fits after evicting a set of jobs also
//     fits after evicting only those that share a node with where it
//     lands. O(t log t) for t placed tasks; no allocation when dst has
//     room.
//
// A Model belongs to one goroutine at a time.
package cluster
