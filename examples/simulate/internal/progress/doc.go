// Package progress prints a one-line progress indicator with an estimate
// of the time left, for runs long enough to need one.
//
// # When it shows
//
// A [Meter] has a [Mode]: [Auto] shows progress only when the writer is a
// terminal (so redirected output and pipelines stay clean), [Always]
// forces it on even when it is not (a log file then gets one line per
// update, every [LogEvery], instead of a line redrawn in place), and
// [Never] keeps it off. Nothing is shown before [Delay] has passed, so
// short runs stay quiet in every mode.
//
// # The estimate
//
// Callers report done of total units of work. The time left is the wall
// time spent so far, extrapolated at the same rate: elapsed·(1−f)/f for
// the fraction f done ([ETA]). Time comes from an injectable
// [clock.Clock], so tests drive it with a clock.Func over a variable.
//
// # Costs
//
// [Meter.Update] is O(1) and takes one mutex; it writes at most once per
// redraw interval. A Meter is safe for concurrent use.
package progress
