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
// [Model.Shape] and [Model.MayFit] implement the engine's optional
// [requeue.Shaper] and [requeue.FitBounder] hints.
//
// A Model belongs to one goroutine at a time.
package cluster
