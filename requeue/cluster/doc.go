// Package cluster is tenure's in-memory reference [requeue.Model]: nodes
// with [Resources] vectors (millicores, bytes, GPUs), jobs ([Job]) whose
// tasks request vectors with a gang minimum, and deterministic first-fit
// placement in the order the nodes were given. It sits beside the
// conformance kit [github.com/tenurepolicy/tenure/requeue/requeuetest] the
// way testing/fstest.MapFS sits beside fstest.TestFS: tests, the examples
// and the simulator use it, and a small scheduler can too.
//
// # Cost
//
// A segment tree of free vectors backs placement: an attempt typically
// costs O(tasks · log nodes) and allocates nothing. A request that fits no
// node of a fragmented cluster costs O(nodes) once; asked again, it is
// answered from the nodes freed since. Every mutation takes an optional
// [requeue.Journal] and records allocation-free undo steps, so the engine
// can roll a virtual eviction back exactly.
//
// # Memory
//
// Memory follows the jobs registered now: a removed job's storage is
// reused at once, the storage shrinks when most jobs leave, and
// [Model.Clone] costs O(nodes + jobs + tasks) whatever the model's history.
// [Model.Snapshot] and [Snapshot.Equal] compare states in tests.
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
//   - [Model.Domains] (the engine's locality hint, requeue.Localizer): the
//     nodes a running job occupies, in node order. A node is the model's
//     unit of locality: an eviction frees resources only on its job's
//     nodes, so a contender that fits after evicting a set of jobs also
//     fits after evicting only those that share a node with where it
//     lands. O(t log t) for t placed tasks; no allocation when dst has
//     room.
//
// A Model belongs to one goroutine at a time.
package cluster
