// Package alloc reproduces the GPU-allocation experiment of Weng et al.,
// "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with
// Fragmentation Gradient Descent" (USENIX ATC 2023), on any pod and node
// list in the openb CSV format: pods only arrive, never leave, and each
// is placed on arrival or fails. The curve is the share of the cluster's
// GPUs allocated as the arrived GPU demand grows to 130% of capacity.
//
// # Protocol
//
// The facts below are those of the paper and of its simulator (the
// repository hkust-adsl/kubernetes-scheduler-simulator: its workload
// tuning, its score plugins and its GPU-sharing filter); the code is this
// package's own.
//
//   - Order and inflation ([Workload]): the pod list sorted by name and
//     shuffled with the seed; then pods drawn uniformly (with replacement)
//     from the original list are appended until the next one would take
//     the total GPU demand past tune × the cluster's GPU capacity (tune
//     1.3 in the paper).
//   - Filter: a pod fits a node with enough free CPU and memory and, for a
//     pod asking for GPUs, a GPU model the pod accepts and that many GPUs
//     each with at least the pod's share free.
//   - Scores: every fitting node gets an integer score from 0 to 100, as
//     a Kubernetes score plugin does, and the pod goes to a node with the
//     highest score, chosen uniformly at random among ties (the
//     scheduler's own tie-break). See [Policy] for each policy's score
//     and its choice of GPUs within the node.
//   - Fragmentation ([Fragmentation]): the paper's measure against the
//     target workload: the most common pod shapes (CPU, GPUs, share,
//     models) of the original list that together cover 95% of its pods,
//     CPU-only pods included, weighted by their popularity. Memory is not
//     part of the measure.
//   - Curve ([Discretize]): after every pod, the arrived and the
//     allocated GPU demand; the value at x% is the mean allocation (%)
//     over the pods after which the arrived demand, rounded to a whole
//     percent, is x (the paper's analysis; x±1 when no pod lands on x).
//
// # Costs
//
// A run places P pods on N nodes: O(P·N) fits, plus a score per fitting
// node that is cached per node and pod shape until the node changes. The
// gradient's score costs O(G²·W) on a miss, for G GPUs per node and W
// target shapes.
package alloc
