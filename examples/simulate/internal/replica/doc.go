// Package replica derives the replicates of a trace-driven run, so that a
// fixed trace still gets intervals over -runs.
//
// A single production trace has variation the default run hides: which
// nodes a scaled-down cluster keeps, which team queue each job lands in
// (a hash of its name), and the exact arrival instants (recorded to the second, but the order of near-
// simultaneous arrivals is an accident). A replicate varies all three,
// each drawn deterministically from the replicate's seed:
//
//   - the node sample: [Sample] keeps ⌈n/k⌉ of n nodes, stratified by
//     node type ([Stratum]: GPU model, GPU count, CPU and memory size
//     class), each stratum its largest-remainder share ([Allocate]), so
//     every replicate keeps the whole cluster's mix; which nodes of a
//     stratum is the replicate's draw ([Params.NodeSeed], [NodeRand]);
//   - [TeamSalt] and [Team]: a salt mixed into the name's hash (salt 0 is
//     the plain FNV-1a hash of the name, the default assignment);
//   - [Jitter]: a shift of each arrival, uniform in [−max, +max] seconds.
//
// The identity replicate (node seed 0: the members of each stratum evenly
// spaced through it; salt 0; no jitter) is the trace as recorded;
// [For] returns it for the base seed, so the first of -runs is the run
// without -runs.
//
// # Costs
//
// For, TeamSalt and Jitter are O(1) and Team O(len(name)); none of them
// allocates. Stratum allocates its name; Allocate is O(s log s) for s
// strata and Sample O(n log n) for n nodes, each allocating its result.
package replica
