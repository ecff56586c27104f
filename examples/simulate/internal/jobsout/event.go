package jobsout

import "fmt"

// Kind is what happened to a job.
type Kind string

// The kinds of Event.
const (
	// Arrive: the job was submitted. Tasks and GPUMilli are what it asks
	// for, Work the seconds of work it needs.
	Arrive Kind = "arrive"
	// Start: the job (or one run of it) started on Node; Wait is the time
	// since it arrived or was last evicted.
	Start Kind = "start"
	// Evict: the run was stopped for another job. Cause, Preemptor (the
	// job it was stopped for, when there is one), Work (the run's length)
	// and LostMilliS (GPU thousandth-seconds of work thrown away).
	Evict Kind = "evict"
	// Shrink: preemption took tasks from the running elastic job, which
	// keeps its work and runs on. Tasks and GPUMilli are what it runs on
	// from now on, Node their nodes, Preemptor the job the tasks were
	// taken for. No work is lost.
	Shrink Kind = "shrink"
	// Finish: the job completed; Work is the last run's length.
	Finish Kind = "finish"
	// Waiting: the job was still waiting when the window ended; Wait is
	// how long so far (a lower bound on its wait).
	Waiting Kind = "waiting"
	// Running: the job was still running when the window ended.
	Running Kind = "running"
)

// Event is one line of the export. Job identifies the job across its
// events (its index in the workload); the other fields are filled as the
// Kind's documentation says and are zero otherwise.
type Event struct {
	// Policy is the policy whose run the event belongs to (an export
	// holds one run per policy, one after another).
	Policy     string  `json:"policy,omitempty"`
	Kind       Kind    `json:"event"`
	Time       int64   `json:"time_s"`
	Job        int     `json:"job"`
	Name       string  `json:"name,omitempty"`
	Class      string  `json:"class,omitempty"`
	Queue      string  `json:"queue,omitempty"`
	Tasks      int32   `json:"tasks,omitempty"`
	GPUMilli   int64   `json:"gpu_milli,omitempty"`
	Node       string  `json:"node,omitempty"`
	Wait       int64   `json:"wait_s,omitempty"`
	Work       int64   `json:"work_s,omitempty"`
	Cause      string  `json:"cause,omitempty"`
	Preemptor  string  `json:"preemptor,omitempty"`
	LostMilliS float64 `json:"lost_gpu_milli_s,omitempty"`
}

// validKind reports whether k is one of the kinds above.
func validKind(k Kind) bool {
	switch k {
	case Arrive, Start, Evict, Shrink, Finish, Waiting, Running:
		return true
	}
	return false
}

// Format is an export file format.
type Format int

const (
	// CSV is comma-separated values with a header row.
	CSV Format = iota
	// JSONLines is one JSON object per line.
	JSONLines
)

// String returns the flag spelling of f.
func (f Format) String() string {
	if f == JSONLines {
		return "jsonl"
	}
	return "csv"
}

// FormatFor returns the format named by flag ("csv" or "jsonl"), or, when
// flag is empty, the one the extension of path implies (.csv; .jsonl,
// .ndjson or .json). Anything else is an error naming both ways to say it.
func FormatFor(path, flag string) (Format, error) {
	switch flag {
	case "csv":
		return CSV, nil
	case "jsonl", "ndjson":
		return JSONLines, nil
	case "":
	default:
		return CSV, fmt.Errorf("jobsout: format %q is not csv or jsonl", flag)
	}
	for i := len(path) - 1; i >= 0 && path[i] != '/'; i-- {
		if path[i] != '.' {
			continue
		}
		switch path[i:] {
		case ".csv":
			return CSV, nil
		case ".jsonl", ".ndjson", ".json":
			return JSONLines, nil
		}
		break
	}
	return CSV, fmt.Errorf("jobsout: cannot tell the format of %q: name it .csv or .jsonl, or set -jobs-out-format", path)
}
