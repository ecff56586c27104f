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
//     a Kubernetes score plugin does, from the policy's plugin alone (the
//     experiments disable every default kube-scheduler score plugin), and
//     the pod goes to the node with the highest score; among equal scores,
//     to the node whose name sorts first. That is not the stock
//     kube-scheduler's tie-break (a uniform draw among the best): the
//     paper's simulator patches its selectHost to take the smallest name
//     "for reproducibility". It matters most for a pod that asks for no
//     GPU, which GpuClustering and GpuPacking score 0 on every node and
//     FGD 50 on most: all such pods go to the first nodes by name until
//     those are full, instead of being spread over the cluster. Random
//     is a uniform draw among the fitting nodes (its plugin gives one
//     drawn node the top score). See [Policy] for each policy's score and
//     its choice of GPUs within the node.
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
// # Sources
//
// What the upstream repository was read for (paths in
// hkust-adsl/kubernetes-scheduler-simulator, at the commits the code
// search stored):
//
//   - experiments/run_scripts/generate_run_scripts.py (1ef99e4f): the six
//     policies, each one score plugin at weight 1000, GPU selection
//     "best" but FGD's own, tune 1.3, seeds 42-51, shuffled pods.
//   - scripts/generate_config_and_run.py (940fc9a1): the scheduler
//     configuration: percentageOfNodesToScore 100, filter
//     Open-Gpu-Share, score plugins ImageLocality, NodeAffinity,
//     PodTopologySpread, TaintToleration, NodeResourcesBalancedAllocation,
//     InterPodAffinity, NodeResourcesLeastAllocated and NodePreferAvoidPods
//     disabled, only the policy's plugin enabled; typical pods with
//     CPU-only pods, popularity threshold 95.
//   - vendor/k8s.io/kubernetes/pkg/scheduler/core/generic_scheduler.go
//     (5b6b304d; go.mod replaces k8s.io/kubernetes with the fork
//     mental2008/kubernetes v1.20.5-minor): selectHost keeps the first
//     highest score and on an equal score the smaller node name; the
//     reservoir sampling is commented out.
//   - pkg/simulator/plugin/gpu_clustering_score.go (b6567da8),
//     gpu_packing_score.go (29a1e4c4), fgd_score.go (5b6b304d),
//     random_score.go (5b6b304d), open_gpu_share.go (29a1e4c4): the
//     scores, the score of a pod with no GPU (the minimum, 0, for
//     clustering and packing; FGD scores the fall of fragmentation as
//     for any pod), and the GPU choice within a node.
//   - the openb node list's YAML (node names are the CSV's sn,
//     openb-node-0000 to openb-node-1212, so name order is the list's).
//
// # Costs
//
// A run places P pods on N nodes: O(P·N) fits, plus a score per fitting
// node that is cached per node and pod shape until the node changes. The
// gradient's score costs O(G²·W) on a miss, for G GPUs per node and W
// target shapes.
package alloc
