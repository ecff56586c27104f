// Package compare turns per-seed metric values of several arms (policies,
// or the points of a sweep) into the simulator's statistics: per arm a
// mean with a 95% interval, per arm after the first its difference from
// the first paired by seed, and a family-wise error control over all the
// differences tested together.
//
// # Methods
//
//   - Counts (evictions, thrash, unfinished jobs) are skewed and never
//     negative: their interval is a bootstrap-t never narrower than
//     Student's t (stats.Studentized), its lower limit at least 0, which
//     covers where a percentile bootstrap does not (the stats package
//     gives the measurement). Its resampling seed is a hash of the
//     metric's name and the runs' seeds only, so the same values give the
//     same interval in every command. Other metrics get Student's t.
//   - Differences are paired by seed (arms of one seed share their
//     workload), with a paired t-test p-value.
//   - Holm's step-down procedure over every tested difference keeps the
//     chance of any false "differs" at or below alpha; the report names the
//     family size.
//   - A value that is only a lower bound (a wait percentile that includes
//     jobs still waiting) marks the arm's mean and interval as lower bounds.
//     Subtracting lower bounds bounds nothing, so such a difference gets a
//     sign test instead: a seed counts for one order only when the bound
//     settles it (a lower bound above the other arm's exact value); the
//     unsettled seeds count against each direction tested (conservative).
//     With no seed settled it is untested. A difference that is exactly 0
//     on every seed (a metric the arms cannot differ in) is left out of the
//     family too.
//   - Every difference carries its replicate support: the seeds on which
//     the arm is below, above or equal to the first, or unsettled.
//
// # Costs
//
// [Compare] is O(M·A·(S + B·S)) for M metrics, A arms, S seeds and B
// bootstrap resamples, plus O(F log F) for Holm over F differences.
package compare
