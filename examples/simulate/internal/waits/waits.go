package waits

import (
	"github.com/tenurepolicy/tenure/examples/simulate/internal/stats"
)

// Sizes are the size buckets' labels, in order.
var Sizes = []string{"0", "<1", "1", "2", "3-4", "5-8", ">8"}

// SizeBucket returns the index in Sizes of a job requesting gpuMilli
// thousandths of a GPU in all.
func SizeBucket(gpuMilli int64) int {
	switch {
	case gpuMilli <= 0:
		return 0
	case gpuMilli < 1000:
		return 1
	case gpuMilli <= 1000:
		return 2
	case gpuMilli <= 2000:
		return 3
	case gpuMilli <= 4000:
		return 4
	case gpuMilli <= 8000:
		return 5
	}
	return 6
}

// End is where a job was when the simulation stopped.
type End uint8

const (
	// Done: the job finished; its wait is exact.
	Done End = iota
	// Running: the job was unfinished but running (its wait so far is a
	// lower bound: it may be evicted and wait again).
	Running
	// Waiting: the job was unfinished and not running (never started, or
	// evicted and not restarted).
	Waiting
)

// Table collects waits (in seconds) per class and size bucket. The zero
// value is not usable; create it with New. Not safe for concurrent use.
type Table struct {
	classes []string
	by      [][][]stats.Wait // [class][size]
	waiting [][]int          // [class][size]: jobs Waiting at the end
}

// New returns an empty Table for the named classes (indexes into classes
// are what Add takes).
func New(classes []string) *Table {
	t := &Table{classes: classes, by: make([][][]stats.Wait, len(classes)), waiting: make([][]int, len(classes))}
	for c := range t.by {
		t.by[c] = make([][]stats.Wait, len(Sizes))
		t.waiting[c] = make([]int, len(Sizes))
	}
	return t
}

// Add records one job of class c requesting gpuMilli thousandths of a GPU
// in all: it waited wait seconds (end Done), or, unfinished (Running or
// Waiting), has waited that long so far.
func (t *Table) Add(c int, gpuMilli, wait int64, end End) {
	s := SizeBucket(gpuMilli)
	t.by[c][s] = append(t.by[c][s], stats.Wait{Len: float64(wait), Ended: end == Done})
	if end == Waiting {
		t.waiting[c][s]++
	}
}

// ClassWaits is one class's waits, in seconds. SizeWaits repeats some of
// its fields on purpose (see there).
type ClassWaits struct {
	Class string `json:"class"`
	Jobs  int    `json:"jobs"`
	// Censored counts the unfinished jobs, whose waits are lower bounds;
	// Waiting those of them not running at the end.
	Censored int         `json:"unfinished"`
	Waiting  int         `json:"still_waiting"`
	Max      stats.Value `json:"max_s"`
	P50      stats.Value `json:"p50_s"`
	P95      stats.Value `json:"p95_s"`
	P99      stats.Value `json:"p99_s"`
	// KM95 is the Kaplan–Meier estimate of the p95.
	KM95   stats.Value `json:"p95_kaplan_meier_s"`
	BySize []SizeWaits `json:"by_size"`
}

// SizeWaits is one size bucket's waits within a class. It repeats four of
// ClassWaits' fields instead of sharing an embedded struct with it, so that
// each JSON object keeps its own key order (the report's JSON is pinned).
type SizeWaits struct {
	Size     string      `json:"gpus"`
	Jobs     int         `json:"jobs"`
	Censored int         `json:"unfinished"`
	Waiting  int         `json:"still_waiting"`
	P95      stats.Value `json:"p95_s"`
	Max      stats.Value `json:"max_s"`
}

// Summary returns every class with at least one job, in the order given
// to New; within a class, every size bucket with a job.
func (t *Table) Summary() []ClassWaits {
	var out []ClassWaits
	for c, name := range t.classes {
		var all []stats.Wait
		cw := ClassWaits{Class: name}
		for s, ws := range t.by[c] {
			if len(ws) == 0 {
				continue
			}
			all = append(all, ws...)
			vs, cens := values(ws)
			cw.Waiting += t.waiting[c][s]
			q := stats.Percentiles(vs, 0.95, 1)
			cw.BySize = append(cw.BySize, SizeWaits{Size: Sizes[s], Jobs: len(ws), Censored: cens, Waiting: t.waiting[c][s],
				P95: q[0], Max: q[1]})
		}
		if len(all) == 0 {
			continue
		}
		vs, cens := values(all)
		cw.Jobs, cw.Censored = len(all), cens
		q := stats.Percentiles(vs, 1, 0.5, 0.95, 0.99)
		cw.Max, cw.P50, cw.P95, cw.P99 = q[0], q[1], q[2], q[3]
		cw.KM95 = stats.KaplanMeierQuantile(all, 0.95)
		out = append(out, cw)
	}
	return out
}

// values converts waits to Values (censored = still waiting) and counts
// the censored ones.
func values(ws []stats.Wait) ([]stats.Value, int) {
	vs := make([]stats.Value, len(ws))
	n := 0
	for i, w := range ws {
		vs[i] = stats.Value{V: w.Len, Censored: !w.Ended}
		if !w.Ended {
			n++
		}
	}
	return vs, n
}
