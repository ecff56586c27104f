// Package frag measures GPU fragmentation and scores placements, as pure
// functions over a small view of node state ([Node]: free CPU, memory and
// free thousandths per GPU) and task requests ([Task]).
//
// # Stranded GPUs
//
// [Stranded] is the simulator's direct question: of the GPU capacity that
// is free right now, how much can no waiting task use? A GPU's free share
// is usable when some waiting task fits on its node and needs no more of
// one GPU than that share. Everything else is stranded: free in total, but
// on no node where anything that waits can run.
//
// # The trace paper's fragmentation measure
//
// The openb trace was published with Weng et al., "Beware of
// Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
// Gradient Descent" (USENIX ATC 2023). Their measure judges a node's free
// GPU capacity against a target workload: a set of task shapes with their
// popularity. For one task shape, the fragment of a node is the free GPU
// capacity that shape cannot use there — all of it when the shape does
// not fit on the node at all (too little CPU or GPU, or a shape that asks
// for no GPU), otherwise the free share of each GPU that holds less than
// the shape needs from one GPU. A node's fragmentation is the
// popularity-weighted average over the shapes ([NodeFrag]); the cluster's
// is the sum over nodes ([ClusterFrag]), and dividing by the free GPU
// capacity gives a rate between 0 and 1.
//
// # Placement
//
// [Choose] picks a node for a task under a [Policy]: [FirstFit] (the
// lowest-numbered node that fits), [BestFit] (the node left with the least
// free GPU, then CPU) or [FragGradient], in the spirit of the paper's
// fragmentation-gradient descent: the node (and, for a GPU-sharing task,
// the GPU) whose fragmentation grows least when the task is placed there.
// [Take] chooses the GPUs within a node.
//
// # Costs
//
// With G GPUs per node, W workload shapes and N nodes: [Fits] is O(G);
// [NodeFrag] O(W·G); [ClusterFrag] O(N·W·G); [Stranded] O(N·S·G) for S
// distinct waiting shapes (callers deduplicate); [Choose] O(N·G) for
// first- and best-fit and O(N·G²·W) for FragGradient. Nothing allocates
// except Take's result and Choose's scratch copy of one node's GPUs.
package frag
