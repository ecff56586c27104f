// Package report is what the simulator prints: the report's data
// ([Report], [Result], [Note], [Summary], [SettingsReport]), its text
// tables ([WriteTable]), the JSON shape (the types' tags), the plots
// ([RenderSVG], [RenderSweepSVG]), the statistics over seeds and sweep
// points ([AggregateRuns], [AggregateSweep]), output files written
// atomically ([CreateOutput]) and the progress line on a terminal
// ([NewProgress]).
//
// It computes no metric of a run: package sim fills each [Result].
package report
