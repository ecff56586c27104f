// Package jobsout writes and reads the simulator's per-job export
// (-jobs-out): one [Event] per arrival, start, eviction, shrink (an
// elastic job that lost tasks) and completion of every job, and one per
// job still waiting or running when the
// measurement window ends — enough to recompute the headline metrics
// outside the tool.
//
// # Formats
//
// [CSV] has a header row and one row per event; [JSONLines] one JSON
// object per line with the same field names (empty fields omitted). The
// format is chosen by [FormatFor] from the -jobs-out-format flag, or else
// from the file name's extension (.csv, .jsonl, .ndjson, .json). Both are
// deterministic: the same events give the same bytes. Times are whole
// seconds from the start of the trace; GPU amounts are thousandths of a
// GPU ("milli"), so 8 whole GPUs are 8000.
//
// # Costs
//
// [Writer.Write] is O(fields) and buffered; [Read] is O(input).
package jobsout
