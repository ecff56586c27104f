// Package cluster is tenure's in-memory reference [requeue.Model]: nodes
// with [Resources] vectors (millicores, bytes, GPUs), jobs ([Job]) whose
// tasks request vectors with a gang minimum, and deterministic first-fit
// placement in the order the nodes were given. It sits beside the
// conformance kit [github.com/tenurepolicy/tenure/requeue/requeuetest] the
// way testing/fstest.MapFS sits beside fstest.TestFS: tests and examples
// use it, and a small scheduler can too.
//
// First fit rests on a segment tree of the nodes' free vectors (each
// range summarised by its component-wise maximum), O(log nodes) per task
// unless the cluster is fragmented, O(nodes) at worst; and on a bounded
// memory of requests that fitted no node, so asking again costs O(1) plus
// the nodes freed since. [Model] implements every optional hint of the
// engine ([requeue.Shaper], [requeue.FitBounder]).
// [Model.Snapshot] returns the observable state as plain maps, for tests
// and for reading where the jobs run.
package cluster
