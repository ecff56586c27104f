// Package cluster is the simulated cluster's resource state: what is free
// on each node ([NodeFree]: CPU, memory and the thousandths of each GPU not
// yet shared out), which tasks run where, and segment trees over the nodes
// that find the first node a task fits on ([State.FindFit],
// [State.NextFit]) and bound what evicting every task of a class or lower
// would free ([State.FreeableNext]). A change marks its node stale; the
// trees refresh the stale nodes at their next query, so the many evictions
// and rollbacks of a requeue search between two fit tests cost a tree
// update per node changed, not per change.
//
// It knows nothing of policies or time: the event loop (package sim) takes
// and gives resources and asks where a task fits.
//
// # Its own index, not the library's
//
// The free-resource index ([Index], a segment tree of per-node [Vec]
// summaries) and the memory of failed fits ([FitMemory]: a task that
// fitted no node is answered next time from the nodes freed or unmasked
// since) are the same two structures requeue/cluster.Model's first fit
// rests on, kept here as the simulator's own code: the library keeps its
// copies unexported, since no embedder calls them, and its vectors have no
// share of one GPU (Vec.GPUMilli), which only this trace needs. A State
// holds one Index of the nodes' free resources, and one per class of what
// evicting that class and those below would free.
//
// # What it extends, and why not cluster.Model itself
//
// The State is its own model, not a cluster.Model, because the simulator
// needs what a library model should not carry:
//
//   - GPU sharing as the openb trace states it: a task asks for g GPUs with
//     m thousandths free on each, and a fractional task must fit on one
//     device. A node's leaf in the Index is therefore a summary (fully
//     free GPUs in Vec.GPU, the largest free share of one GPU in
//     Vec.GPUMilli) that bounds what the node holds, and a node the Index
//     proposes gets the exact per-device test (NodeFree.Fits). A vector
//     of CPU, memory and a GPU count cannot say that half a GPU is not two
//     quarters on two devices; every embedder's model would pay for a
//     per-device dimension only this trace needs.
//   - Bounds per priority class (Freeable): what a node would free if every
//     task of a class or lower left, so the preemption search visits only
//     nodes where evicting could help. A library model knows no classes.
//   - Reservations: nodes masked for a waiting job (SetMask) hold
//     noRoom in the Index and are hidden from placement;
//     unmasking one counts as freeing it for the FitMemory.
//   - Dense job indices instead of string IDs on the hot path, and one
//     placement rule (first node, best-fit device) shared by allocation,
//     preemption and the requeue pass.
//
// Package sim keeps one more memory of failures, per scheduling cycle: the
// shapes of whole jobs (gangs included) that found no room or no victims,
// so that a job whose shape dominates one of them is not tried again in
// that cycle. It is not a memory of fits on nodes but the cycle's
// counterpart of the engine's Shaper hint, and it decides which attempts
// a cycle makes, so it stays beside the cycle.
package cluster
