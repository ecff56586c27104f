package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure/requeue"
)

// What is measured, per policy (the report's columns):
//
//   - GPU utilisation: allocated GPU time (GPU-sharing tasks count their
//     share) divided by total GPU capacity × window length, over the
//     measurement window (Config.WindowStart..WindowEnd). Work later lost to an
//     eviction counts as allocated: it occupied the GPU.
//   - Wait: for each completed job, its time in the system not spent on work
//     that counted: completion − arrival − runtime. Without checkpoints that
//     is the time from arrival to the start of the run that completed (a job
//     evicted once waits for its first start, its lost run and its second
//     wait). A job unfinished at the horizon contributes a censored value:
//     horizon − arrival − work done so far (see metrics.finish).
//     Percentiles p50/p95/p99 per priority class, nearest-rank.
//   - Evictions: number of times a running job was stopped for another.
//   - Thrash: evictions of a job that had run less than its min-runtime (as
//     the min-runtime configuration resolves it for that preemptor and victim),
//     counted for every policy, whether or not the policy enforces it.
//   - Lost GPU-hours: the GPU time of evicted runs since their last
//     checkpoint (all of the run without checkpoints: it restarts from
//     scratch).
//   - Fairness: Jain's index J = (Σx)² / (n·Σx²) over the n leaf queues with
//     GPU work, where x_i is queue i's service ratio Σ gpu·runtime /
//     Σ gpu·(done − arrival) over its GPU jobs (an unfinished job counts its
//     work so far and its time in the system up to the horizon): the
//     GPU-weighted share of their time in the system that was useful work
//     (1 = never waited, never lost work). J = 1 when every queue was served equally well; 1/n
//     when one queue got all the service.

// metrics accumulates one run's measurements.
type metrics struct {
	cfg    Config
	gpuCap int64 // GPU milli
	cycles int

	busy    float64   // GPU milli-seconds allocated inside the window
	util    []float64 // per bucket: GPU milli-seconds
	pend    []float64 // per bucket: pending job-seconds
	bucketW float64

	waits      [numClasses][]int64
	evictions  int
	thrash     int
	lostMilliS float64
	work, resp []float64 // per leaf queue, GPU-weighted
	unfinished int
	completed  int

	failedStarts int
	failedMilliS float64
	deactivated  int
	leaf         func(*Job) int32 // dense leaf-queue index

	// Requeue engine outcomes by kind and reason ("committed", "kept/no_fit", ...).
	requeue map[string]int
	// Time-based policy picks by candidate class.
	picks map[string]int
}

func (m *metrics) pick(class string) {
	if m.picks == nil {
		m.picks = map[string]int{}
	}
	m.picks[class]++
}

// countsNote renders counts sorted by key: "a 1, b 2".
func countsNote(title string, counts map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	return title + ": " + strings.Join(parts, ", ")
}

func (m *metrics) requeueOutcomes(res requeue.EngineResult) {
	if m.requeue == nil {
		m.requeue = map[string]int{}
	}
	for _, o := range res.Outcomes {
		k := o.Kind.String()
		if o.Kind != requeue.OutcomeCommitted {
			k += "/" + string(o.Reason)
		}
		m.requeue[k]++
	}
	// The simulator's Model never fails a placement; if it ever did, the
	// report shows it rather than the pass swallowing it.
	if n := len(res.ContenderErrors); n > 0 {
		m.requeue["contender_error"] += n
	}
}

func newMetrics(cfg Config, jobs int, gpuCap int64) *metrics {
	b := max(cfg.Buckets, 1)
	m := &metrics{cfg: cfg, gpuCap: gpuCap, util: make([]float64, b), pend: make([]float64, b)}
	m.bucketW = float64(max(cfg.Horizon-cfg.WindowStart, 1)) / float64(b)
	return m
}

// integrate adds the interval [from, to) at the given levels: to the
// utilisation over the window and to the time series, which runs from the
// window's start to the horizon (so it shows the queue draining).
func (m *metrics) integrate(from, to, alloc int64, pending int) {
	w0, w1 := m.cfg.WindowStart, m.cfg.WindowEnd
	if a, b := max(from, w0), min(to, w1); a < b {
		m.busy += float64(alloc) * float64(b-a)
	}
	a, b := max(from, w0), min(to, m.cfg.Horizon)
	if a >= b {
		return
	}
	// Spread over the buckets the interval overlaps.
	x0 := float64(a - w0)
	x1 := float64(b - w0)
	last := len(m.util) - 1
	for x0 < x1 {
		i := min(int(x0/m.bucketW), last)
		end := math.Min(float64(i+1)*m.bucketW, x1)
		if i == last {
			end = x1
		}
		d := end - x0
		if d <= 0 {
			break
		}
		m.util[i] += float64(alloc) * d
		m.pend[i] += float64(pending) * d
		x0 = end
	}
}

// evicted records an eviction that lost the given seconds of work.
func (m *metrics) evicted(j *Job, lost int64, thrash bool) {
	m.evictions++
	if thrash {
		m.thrash++
	}
	m.lostMilliS += float64(lost) * float64(j.GPUDemand())
}

func (m *metrics) failedStart(j *Job, held int64) {
	m.failedStarts++
	m.failedMilliS += float64(held) * float64(j.GPUDemand())
}

func (m *metrics) complete(j *Job, st *jobState) {
	m.completed++
	m.waits[j.Class] = append(m.waits[j.Class], st.done-j.Arrival-j.Runtime)
	m.service(j, j.Runtime, st.done-j.Arrival)
}

// service adds a job's useful run time and time in the system to its queue's
// fairness terms, weighted by its GPU demand.
func (m *metrics) service(j *Job, useful, inSystem int64) {
	d := j.GPUDemand()
	if d == 0 || m.leaf == nil {
		return
	}
	q := m.leaf(j)
	for int(q) >= len(m.work) {
		m.work = append(m.work, 0)
		m.resp = append(m.resp, 0)
	}
	m.work[q] += float64(d) * float64(useful)
	m.resp[q] += float64(d) * float64(inSystem)
}

func (m *metrics) finish(s *sim) {
	end := s.now
	for i := range s.st {
		st := &s.st[i]
		j := &s.jobs[i]
		useful := st.progress
		switch st.status {
		case statusDone:
			continue
		case statusDeactivated:
			m.deactivated++
			continue
		case statusRunning:
			useful += end - st.start
		case statusPending:
		default:
			continue // not arrived before the horizon
		}
		m.unfinished++
		m.waits[j.Class] = append(m.waits[j.Class], end-j.Arrival-useful)
		m.service(j, useful, end-j.Arrival)
	}
}

// ClassWait is the wait-time distribution of one priority class, in seconds.
type ClassWait struct {
	Class string  `json:"class"`
	Jobs  int     `json:"jobs"`
	P50   float64 `json:"p50_s"`
	P95   float64 `json:"p95_s"`
	P99   float64 `json:"p99_s"`
}

// Result is one policy's outcome.
type Result struct {
	Policy         string      `json:"policy"`
	Completed      int         `json:"completed"`
	Unfinished     int         `json:"unfinished"`
	GPUUtilisation float64     `json:"gpu_utilisation"`
	Wait           []ClassWait `json:"wait"`
	Evictions      int         `json:"evictions"`
	Thrash         int         `json:"thrash"`
	LostGPUHours   float64     `json:"lost_gpu_hours"`
	Jain           float64     `json:"jain_fairness"`
	Cycles         int         `json:"cycles"`
	// Failed starts (synthetic workloads with -fail-rate): how many, the GPU
	// time they held, and jobs given up on.
	FailedStarts        int      `json:"failed_starts,omitempty"`
	FailedStartGPUHours float64  `json:"failed_start_gpu_hours,omitempty"`
	Deactivated         int      `json:"deactivated,omitempty"`
	Notes               []string `json:"notes,omitempty"`
	// Series: per time bucket from the window's start to the horizon, mean
	// GPU utilisation (0..1) and mean number of pending jobs.
	UtilSeries    []float64 `json:"util_series,omitempty"`
	PendingSeries []float64 `json:"pending_series,omitempty"`
}

// percentile returns the nearest-rank p-th percentile of sorted xs.
func percentile(sorted []int64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	k = min(max(k, 0), len(sorted)-1)
	return float64(sorted[k])
}

// jain returns Jain's fairness index of xs (1 for an empty or all-zero set).
func jain(xs []float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 1
	}
	return sum * sum / (float64(len(xs)) * sq)
}

func (m *metrics) result(name string) Result {
	r := Result{
		Policy:       name,
		Completed:    m.completed,
		Unfinished:   m.unfinished,
		Evictions:    m.evictions,
		Thrash:       m.thrash,
		LostGPUHours: m.lostMilliS / 1000 / 3600,
		Cycles:       m.cycles,

		FailedStarts:        m.failedStarts,
		FailedStartGPUHours: m.failedMilliS / 1000 / 3600,
		Deactivated:         m.deactivated,
	}
	if span := m.cfg.WindowEnd - m.cfg.WindowStart; span > 0 && m.gpuCap > 0 {
		r.GPUUtilisation = m.busy / (float64(m.gpuCap) * float64(span))
	}
	for c := Class(numClasses - 1); ; c-- {
		w := slices.Clone(m.waits[c])
		slices.Sort(w)
		r.Wait = append(r.Wait, ClassWait{Class: c.String(), Jobs: len(w),
			P50: percentile(w, 50), P95: percentile(w, 95), P99: percentile(w, 99)})
		if c == 0 {
			break
		}
	}
	var xs []float64
	for q := range m.work {
		if m.resp[q] > 0 {
			xs = append(xs, m.work[q]/m.resp[q])
		}
	}
	r.Jain = jain(xs)
	if len(m.requeue) > 0 {
		r.Notes = append(r.Notes, countsNote("requeue engine outcomes (per pass)", m.requeue))
	}
	if len(m.picks) > 0 {
		r.Notes = append(r.Notes, countsNote("evictions by candidate class", m.picks))
	}
	for i := range m.util {
		r.UtilSeries = append(r.UtilSeries, m.util[i]/(m.bucketW*float64(max(m.gpuCap, 1))))
		r.PendingSeries = append(r.PendingSeries, m.pend[i]/m.bucketW)
	}
	return r
}
