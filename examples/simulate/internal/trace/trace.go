package trace

import (
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Class is a priority class derived from the trace's qos column. Higher
// classes have higher priority: LS > Burstable > BE.
type Class uint8

// The priority classes, lowest first so that Class is also the priority.
const (
	ClassBE Class = iota
	ClassBurstable
	ClassLS
	NumClasses = 3
)

var classNames = [NumClasses]string{"BE", "Burstable", "LS"}

// String returns the class's name as the trace spells it.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// Rank is the class's Rank in the priority scale (BE 0, Burstable 2,
// LS 4): a job's priority is its class's Rank, plus one for a High job.
func (c Class) Rank() int32 { return 2 * int32(c) }

// QueueName is the name of the class's top-level queue.
func (c Class) QueueName() string { return strings.ToLower(c.String()) }

// parseQoS maps a qos value to a class and says whether the job is High
// within it. Guaranteed (7 pods in the trace), Kubernetes' strictest QoS
// class, counts as LS with a priority above the other LS jobs: it shares
// their queues and may preempt them within its own team queue.
func parseQoS(s string) (c Class, high, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "guaranteed":
		return ClassLS, true, true
	case "ls":
		return ClassLS, false, true
	case "burstable":
		return ClassBurstable, false, true
	case "be", "besteffort":
		return ClassBE, false, true
	}
	return 0, false, false
}

// Job is one job as the simulator sees it: a trace task, or a synthetic
// job of one or more identical tasks. Times are whole seconds from the
// trace start.
type Job struct {
	Name  string
	Class Class
	Team  int // index of the team queue under the class (hash of Name)
	// High: a priority above the class's other jobs. It matters only
	// within the job's own team queue, where a High job may preempt the
	// others (KAI-Scheduler's preempt action); see RankedApart.
	High    bool
	Arrival int64 // creation_time
	// Runtime is the seconds of work the job needs with all its tasks
	// running, >= 1. A job running fewer tasks (a shrunk elastic job)
	// progresses proportionally more slowly.
	Runtime int64
	// Demand of one task.
	CPU      int64 // milli-CPUs
	Mem      int64 // MiB
	GPUs     int32 // number of GPUs (0 for CPU-only tasks)
	GPUMilli int32 // share of each GPU in thousandths (1..1000); 0 when GPUs == 0
	// Tasks is the number of tasks (pods), >= 1; MinTasks, in 1..Tasks, how
	// many must run together (a gang). A job with MinTasks < Tasks is
	// elastic: preemption may take tasks from it down to MinTasks. Trace
	// tasks are single-task jobs.
	Tasks, MinTasks int32
	Phase           string
	// Alive: the pod was still running when the trace ended (its
	// deletion_time is empty or 0, or it is the trace's last timestamp and
	// pod_phase is Running), so its real runtime is unknown; see sim.Prepare
	// for how such pods are replayed.
	Alive bool
	// ReadyAfter (synthetic workloads only): a start before this instant
	// fails: the job holds its resources for ReadinessTimeout without
	// becoming ready and is then evicted (a failed start). 0: always ready.
	ReadyAfter int64
}

// ReadinessTimeout is how long a failed start holds its resources before the
// scheduler evicts it (Kueue's waitForPodsReady default timeout).
const ReadinessTimeout = 5 * 60

// Priority is the job's scheduling priority: its class's rank (BE 0,
// Burstable 2, LS 4), plus one when it is High.
func (j *Job) Priority() int32 {
	p := j.Class.Rank()
	if j.High {
		p++
	}
	return p
}

// ClassRank drops the within-class part of a priority.
func ClassRank(p int32) int32 { return p &^ 1 }

// RankedApart reports whether jobs of priorities a and b are never
// compared: of one class, in different team queues, with different
// priorities. A High job outranks its class's other jobs only within its
// own team queue (KAI-Scheduler's preempt action orders a queue's jobs by
// priority); across queues a class takes from the classes below it (the
// simulator's reclaim), and within a class only equal priorities meet
// (the time-based policy's newer and expired picks).
func RankedApart(sameQueue bool, a, b int32) bool {
	return !sameQueue && a != b && ClassRank(a) == ClassRank(b)
}

// TaskGPU is one task's GPU request in thousandths of a GPU.
func (j *Job) TaskGPU() int64 { return int64(j.GPUs) * int64(j.GPUMilli) }

// GPUDemand is the job's GPU request with all its tasks, in thousandths of a GPU.
func (j *Job) GPUDemand() int64 { return int64(j.Tasks) * j.TaskGPU() }

// Work is the job's total work in task-seconds: Tasks × Runtime.
func (j *Job) Work() int64 { return int64(j.Tasks) * j.Runtime }

// Node is one machine of the cluster.
type Node struct {
	Name  string
	CPU   int64 // milli-CPUs
	Mem   int64 // MiB
	GPUs  int32
	Model string
}

// Limits on input values; anything larger is rejected as corrupt input.
const (
	maxGPUsPerTask = 64
	maxGPUsPerNode = 64
	maxTime        = int64(1) << 32 // ~136 years of seconds: simulated instants stay far inside time.Duration
	maxQuantity    = int64(1) << 40
)

// teamOf deterministically assigns a job to one of teams team queues.
func teamOf(name string, teams int) int {
	if teams <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % uint32(teams))
}

// maxReportedErrors bounds how many per-line problems an error lists.
const maxReportedErrors = 10

// lineErrors collects per-line problems and reports the first few by line.
type lineErrors struct {
	file  string
	errs  []lineError
	extra int
}

type lineError struct {
	line int
	err  error
}

// maxStoredErrors bounds the memory a file full of bad lines can take.
const maxStoredErrors = 1000

func (l *lineErrors) add(line int, format string, args ...any) {
	if len(l.errs) >= maxStoredErrors {
		l.extra++
		return
	}
	l.errs = append(l.errs, lineError{line, fmt.Errorf("simulate: %s line %d: %s", l.file, line, fmt.Sprintf(format, args...))})
}

func (l *lineErrors) err() error {
	slices.SortStableFunc(l.errs, func(a, b lineError) int { return a.line - b.line })
	var errs []error
	for i, e := range l.errs {
		if i == maxReportedErrors {
			break
		}
		errs = append(errs, e.err)
	}
	if more := l.extra + len(l.errs) - len(errs); more > 0 {
		errs = append(errs, fmt.Errorf("simulate: %s: %d more problems not shown", l.file, more))
	}
	return errors.Join(errs...)
}

// table reads a CSV with a header row and gives access to named columns.
type table struct {
	cols map[string]int
	rows [][]string
	line []int // 1-based line number of each row
}

// readTable reads the header and every well-formed row; problems with
// individual rows are added to errs.
func readTable(file string, r io.Reader, required []string, errs *lineErrors) (*table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("simulate: %s: empty file, want a header row with %s", file, strings.Join(required, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("simulate: %s: %w", file, err)
	}
	t := &table{cols: make(map[string]int, len(header))}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := t.cols[h]; dup {
			return nil, fmt.Errorf("simulate: %s: header: duplicate column %q", file, h)
		}
		t.cols[h] = i
	}
	var missing []string
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("simulate: %s: header lacks column(s) %s (have %s)", file, strings.Join(missing, ","), strings.Join(header, ","))
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errs.add(pe.Line, "%v", pe.Err)
				if pe.Err == csv.ErrQuote || pe.Err == csv.ErrBareQuote {
					break // the rest of the file cannot be split reliably
				}
				continue
			}
			return nil, fmt.Errorf("simulate: %s: %w", file, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			errs.add(line, "%d fields, header has %d", len(rec), len(header))
			continue
		}
		t.rows = append(t.rows, rec)
		t.line = append(t.line, line)
	}
	return t, nil
}

// rowParser reads the fields of one data row, recording each problem
// against the row's line; bad is set once any field was rejected.
type rowParser struct {
	t    *table
	row  []string
	line int
	errs *lineErrors
	bad  bool
}

// str returns the trimmed value of column col.
func (r *rowParser) str(col string) string {
	return strings.TrimSpace(r.row[r.t.cols[col]])
}

// specOf is the row's gpu_spec, "" when the file has no such column.
func specOf(r rowParser, has bool) string {
	if !has {
		return ""
	}
	return r.str("gpu_spec")
}

// fail records a problem with the row.
func (r *rowParser) fail(format string, args ...any) {
	r.errs.add(r.line, format, args...)
	r.bad = true
}

// num parses column col as an integer in 0..max (see parseInt); an empty
// value is 0, and a problem when required.
func (r *rowParser) num(col string, max int64, required bool) int64 {
	if required && r.str(col) == "" {
		r.fail("%s: missing", col)
		return 0
	}
	v, _ := r.optNum(col, max)
	return v
}

// optNum parses column col as an integer in 0..max. ok is false when the
// value is empty or invalid (an invalid value is recorded as a problem).
func (r *rowParser) optNum(col string, max int64) (v int64, ok bool) {
	v, ok, err := parseInt(r.str(col), max)
	if err != nil {
		r.fail("%s: %v", col, err)
	}
	return v, ok
}

// uniqueName returns column col, which must be non-empty and not used by an
// earlier row (seen maps each name to its line).
func (r *rowParser) uniqueName(col string, seen map[string]int) string {
	name := r.str(col)
	if name == "" {
		r.fail("%s: missing", col)
	} else if prev, dup := seen[name]; dup {
		r.fail("%s: %q already used on line %d", col, name, prev)
	} else {
		seen[name] = r.line
	}
	return name
}

// parseInt parses a non-negative integer no larger than max. Empty is
// reported by ok == false with a nil error.
func parseInt(s string, max int64) (v int64, ok bool, err error) {
	if s == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%q is not an integer", s)
	}
	if v < 0 {
		return 0, false, fmt.Errorf("%d is negative", v)
	}
	if v > max {
		return 0, false, fmt.Errorf("%d is out of range (max %d)", v, max)
	}
	return v, true, nil
}

var podColumns = []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "qos", "creation_time", "deletion_time", "scheduled_time"}

// ParsePods reads a pod list in the openb format. teams is the number of team
// queues per class. Every problem found is reported (the first few per file),
// each with its line number. See the package comment for how columns map to
// jobs.
func ParsePods(file string, r io.Reader, teams int) ([]Job, error) {
	errs := lineErrors{file: file}
	t, err := readTable(file, r, podColumns, &errs)
	if err != nil {
		return nil, err
	}
	_, hasPhase := t.cols["pod_phase"]
	_, hasSpec := t.cols["gpu_spec"]
	seen := make(map[string]int, len(t.rows))
	jobs := make([]Job, 0, len(t.rows))
	tt := make([]podTimes, 0, len(t.rows))
	traceEnd := int64(0)
	for i, row := range t.rows {
		r := rowParser{t: t, row: row, line: t.line[i], errs: &errs}
		j := Job{Name: r.uniqueName("name", seen)}
		r.demand(&j)
		if spec := specOf(r, hasSpec); spec != "" {
			r.fail("gpu_spec %q: GPU-model constraints are not simulated (every GPU counts alike), so this trace cannot be replayed faithfully; clear the column to replay it without them", spec)
		}
		qos := r.str("qos")
		if c, high, ok := parseQoS(qos); ok {
			j.Class, j.High = c, high
		} else {
			r.fail("qos: %q is not LS, Guaranteed, Burstable or BE", qos)
		}
		if hasPhase {
			j.Phase = r.str("pod_phase")
		}
		ts := r.times()
		if r.bad {
			continue
		}
		traceEnd = max(traceEnd, ts.created, ts.deleted, ts.scheduled)
		j.Team = teamOf(j.Name, teams)
		j.Arrival = ts.created
		j.Tasks, j.MinTasks = 1, 1
		jobs = append(jobs, j)
		tt = append(tt, ts)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("simulate: %s: no tasks", file)
	}
	setRuntimes(jobs, tt, traceEnd)
	return jobs, nil
}

// podTimes are a pod's instants: creation, deletion (0: none) and
// scheduling (-1: never scheduled).
type podTimes struct{ created, deleted, scheduled int64 }

// demand reads one task's demand into j: CPU, memory, GPUs and the share
// of each GPU (a missing share with GPUs means whole GPUs).
func (r *rowParser) demand(j *Job) {
	j.CPU = r.num("cpu_milli", maxQuantity, false)
	j.Mem = r.num("memory_mib", maxQuantity, false)
	j.GPUs = int32(r.num("num_gpu", maxGPUsPerTask, false))
	milli := int32(r.num("gpu_milli", 1000, false))
	switch {
	case j.GPUs == 0 && milli > 0:
		r.fail("gpu_milli: %d with num_gpu 0", milli)
	case j.GPUs > 0 && milli == 0:
		j.GPUMilli = 1000 // missing share: whole GPUs
	default:
		j.GPUMilli = milli
	}
}

// times reads a pod's instants and checks their order: scheduled no
// earlier than created, deleted no earlier than the start.
func (r *rowParser) times() podTimes {
	var ts podTimes
	ts.created = r.num("creation_time", maxTime, true)
	ts.deleted = r.num("deletion_time", maxTime, false)
	ts.scheduled = -1 // never scheduled
	if sched, ok := r.optNum("scheduled_time", maxTime); ok {
		ts.scheduled = sched
		if sched < ts.created {
			r.fail("scheduled_time %d is before creation_time %d", sched, ts.created)
		}
	}
	start := max(ts.created, ts.scheduled)
	if ts.deleted != 0 && ts.deleted < start {
		r.fail("deletion_time %d is before its start %d", ts.deleted, start)
	}
	return ts
}

// setRuntimes sets each job's runtime from its pod's times: deletion
// minus start (scheduling, or creation for a pod never scheduled), at
// least 1 s; a pod still running when the trace ended (see Job.Alive) runs
// to traceEnd.
func setRuntimes(jobs []Job, tt []podTimes, traceEnd int64) {
	for i := range jobs {
		ts := tt[i]
		start := ts.created
		if ts.scheduled >= 0 {
			start = ts.scheduled
		}
		end := ts.deleted
		if end == 0 || end == traceEnd && strings.EqualFold(jobs[i].Phase, "Running") {
			// Still running when the trace ended: the runtime so far is a
			// lower bound (see Job.Alive).
			end = traceEnd
			jobs[i].Alive = true
		}
		jobs[i].Runtime = max(end-start, 1)
	}
}

var nodeColumns = []string{"sn", "cpu_milli", "memory_mib", "gpu"}

// ParseNodes reads a node list in the openb format (sn, cpu_milli,
// memory_mib, gpu, and optionally model).
func ParseNodes(file string, r io.Reader) ([]Node, error) {
	errs := lineErrors{file: file}
	t, err := readTable(file, r, nodeColumns, &errs)
	if err != nil {
		return nil, err
	}
	_, hasModel := t.cols["model"]
	seen := make(map[string]int, len(t.rows))
	nodes := make([]Node, 0, len(t.rows))
	for i, row := range t.rows {
		r := rowParser{t: t, row: row, line: t.line[i], errs: &errs}
		n := Node{Name: r.uniqueName("sn", seen)}
		n.CPU = r.num("cpu_milli", maxQuantity, true)
		n.Mem = r.num("memory_mib", maxQuantity, true)
		n.GPUs = int32(r.num("gpu", maxGPUsPerNode, true))
		if hasModel {
			n.Model = r.str("model")
		}
		if !r.bad {
			nodes = append(nodes, n)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("simulate: %s: no nodes", file)
	}
	return nodes, nil
}

// TeamName returns the name of team queue t of class c, e.g. "ls-a".
func TeamName(c Class, t int) string {
	return fmt.Sprintf("%s-%s", c.QueueName(), teamSuffix(t))
}

// teamSuffix names teams a, b, ..., z, t26, t27, ...
func teamSuffix(t int) string {
	if t < 26 {
		return string(rune('a' + t))
	}
	return fmt.Sprintf("t%d", t)
}
