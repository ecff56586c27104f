// Package stats holds the statistics the simulator reports across runs and
// sweep points, each chosen so that a conclusion drawn from it survives a
// second look.
//
// # Values that may be lower bounds
//
// A wait that has not ended when a simulation stops is right-censored: the
// true wait is at least what was observed. [Value] carries that mark, and
// every aggregate in this package ([Mean], [Percentile], [Summarize])
// propagates it: an aggregate of values any of which is censored is marked
// whenever the censoring could change it. [KaplanMeierQuantile] is the
// estimator made for censored waits; its result is itself a lower bound
// when the survival curve never falls far enough.
//
// # Comparing policies or settings
//
// Runs that share seeds are compared with [Paired] (mean of per-seed
// differences with a Student-t interval), and a family of m such
// comparisons is controlled with [Holm], Holm's step-down procedure, which
// keeps the chance of any false "differs" at or below alpha for all m at
// once. Counts, which are skewed and never negative, get a percentile
// bootstrap interval from [Bootstrap], deterministic for its seed, whose
// limits can never leave the range of the data.
//
// # Costs
//
// [Mean] is O(n); [Percentile], [KaplanMeierQuantile] and [Holm] are
// O(n log n); [Paired] is O(n); [Bootstrap] is O(reps·n + reps·log reps).
// Nothing here keeps state between calls; everything is safe for
// concurrent use.
package stats
