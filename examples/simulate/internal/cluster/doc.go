// Package cluster is the simulated cluster's resource state: what is free
// on each node ([NodeFree]: CPU, memory and the thousandths of each GPU not
// yet shared out), which tasks run where, and segment trees over the nodes
// that find the first node a task fits on ([State.FindFit]) and bound what
// evicting every task of a class or lower would free ([State.Freeable]).
//
// It knows nothing of policies or time: the event loop (package sim) takes
// and gives resources and asks where a task fits.
//
// # Why not tenure's reference model
//
// requeue/cluster.Model also keeps free resources in a segment tree and
// remembers failed fits, but the simulator needs what a library model
// should not carry:
//
//   - GPU sharing as the openb trace states it: a task asks for g GPUs with
//     m thousandths free on each, and a fractional task must fit on one
//     device. A vector of CPU, memory and a GPU count cannot say that half a
//     GPU is not two quarters on two devices; every embedder's model would
//     pay for a per-device dimension only this trace needs.
//   - Bounds per priority class (Freeable): what a node would free if every
//     task of a class or lower left, so the preemption search visits only
//     nodes where evicting could help. A library model knows no classes.
//   - Reservations: nodes masked for a waiting job (SetMask) are hidden
//     from placement.
//   - Dense job indices instead of string IDs on the hot path, and one
//     placement rule (first node, best-fit device) shared by allocation,
//     preemption and the requeue pass.
package cluster
