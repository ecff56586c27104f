// Package replica derives the replicates of a trace-driven run, so that a
// fixed trace still gets intervals over -runs.
//
// A single production trace has variation the default run hides: which
// nodes a scaled-down cluster keeps (one in k from a fixed offset), which
// team queue each job lands in (a hash of its name), and the exact
// arrival instants (recorded to the second, but the order of near-
// simultaneous arrivals is an accident). A replicate varies all three,
// each drawn deterministically from the replicate's seed:
//
//   - [NodeOffset]: the first node kept, in [0, k);
//   - [TeamSalt] and [Team]: a salt mixed into the name's hash (salt 0 is
//     the plain FNV-1a hash of the name, the default assignment);
//   - [Jitter]: a shift of each arrival, uniform in [−max, +max] seconds.
//
// The identity replicate (offset 0, salt 0, no jitter) is the default run;
// [For] returns it for the base seed, so the first of -runs is the run
// without -runs.
//
// # Costs
//
// Every function is O(1) except Team, O(len(name)); none allocates.
package replica
