package sim

import (
	"math"
	"slices"
	"sort"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/waits"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/report"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"
)

// What is measured, per policy (the report's columns). The window is
// Config.WindowStart..WindowEnd; GPU quantities are in thousandths of a GPU
// inside the simulator and in GPU-hours or fractions in the report.
//
//   - Utilisation: allocated GPU time (GPU-sharing tasks count their share)
//     over capacity × window. It is split into useful and wasted: wasted is
//     GPU time whose work was thrown away — the stretch of an evicted run
//     since its last checkpoint (all of it without checkpoints), and the
//     time a failed start held its GPUs — attributed to the instants it was
//     allocated, so it lands in the window (and the time series) where it
//     was spent. Useful = allocated − wasted.
//   - Goodput: the useful GPU-hours from the window's start to the horizon
//     (one fixed span for every policy; see keep), split by the fate of
//     the job that did the work: jobs done by the end of the run, and
//     jobs still unfinished then (in progress: their kept work has not
//     yet delivered anything, and for a job that could not finish even
//     alone it never will).
//   - Evictions: jobs stopped for another job, by cause — preempt (by a
//     higher-priority job of the same team queue), reclaim (of another
//     queue), time-based (by an equal-priority job: the time-based policy's
//     expired and newer picks) and requeue (by the expected-runtime requeue
//     engine) — and by the victim's class. Shrinks (tasks taken from an
//     elastic job that keeps running) are counted apart.
//   - Thrash: evictions of runs shorter than one fixed reference window
//     (Config.ThrashWindow, -thrash-window), the same for every policy.
//   - Lost GPU-hours: the wasted GPU time of evictions over the whole run.
//   - Fair share: at every instant, each team queue's fair share of the
//     GPUs is computed from what its jobs ask for (running plus waiting):
//     the cluster's GPUs go to the classes in priority order, each class
//     taking what its queues ask for, and a class's part is divided among
//     its queues by water-filling (equal weights, no queue above its
//     demand). Integrated over the window this gives each queue's fair
//     GPU-hours; held/fair is the queue's share against its fair share.
//     Jain's index (Σx)²/(n·Σx²) over every queue summarises it, with each
//     ratio capped at 1: a queue above its fair share filled room that the
//     queues entitled to it could not use (strict priority gives LS its
//     whole demand, placed or not), which wrongs no one, so only shortfalls
//     lower the index (1: no queue got less than its share). Within a
//     class the same water-filling divides what the class actually held:
//     held/fair-within-class isolates fairness among the class's teams
//     from the priority between classes. There the shares add up to what
//     the class held, so a queue above 1 took from a class-mate, and the
//     within-class index uses the ratios uncapped (1: every team got the
//     same fraction of its fair share).
//   - Wait: completion − arrival − runtime for jobs that finish (time in
//     the system not spent on work that counted), p50/p95/p99 per class
//     (nearest rank). A job unfinished at the horizon contributes a
//     censored value: horizon − arrival − work done so far. Jobs that could
//     not finish even alone (see workload.infeasible) are left out of the
//     waits and of "unfinished": they are counted in the header instead.

// metrics accumulates one run's measurements.
type metrics struct {
	cfg    Config
	gpuCap int64 // GPU milli
	cycles int

	busy, waste float64 // GPU milli-seconds inside the window
	// kept holds, per job, the GPU milli-seconds of kept (not thrown
	// away) work inside the window so far; goodDone sums it over the jobs
	// done.
	kept     []float64
	goodDone float64
	// goodInProgress sums it over the jobs unfinished at the end (set by
	// finish), goodInfeasible over those that could not finish even alone.
	goodInProgress, goodInfeasible float64
	util, wasteSeries, pend        []float64
	bucketW                        float64

	waits [trace.NumClasses][]int64
	// censored counts, per class, the waits of jobs unfinished at the end
	// (their wait so far), and censoredMin is the smallest of them.
	censored     [trace.NumClasses]int
	censoredMin  [trace.NumClasses]int64
	byCause      [numCauses]int
	byClass      [trace.NumClasses]int
	shrinks      int
	thrash       int
	lostMilliS   float64
	lostInfeas   float64
	completed    int
	unfinished   int
	failedStarts int
	failedMilliS float64
	deactivated  int
	reservations int
	// searches counts preemption searches for a node (one per task that
	// did not fit), searchesCapped those that stopped at preemptNodeLimit.
	searches, searchesCapped int
	scenarioOK               int
	scenarioNo               int

	// Fairness, per leaf queue.
	teams                   int
	alloc, dem              []int64   // now: allocated, asked for (milli)
	fs, fsIn                []float64 // now: fair share, within-class fair share
	dirty                   bool
	held, fair, fairIn      []float64 // integrated over the window
	leafJobs, leafEvictions []int
	leafWaits               [][]int64
	// leafCensMin is, per leaf, the smallest censored wait (-1: none), so
	// the per-queue p95 is marked as a lower bound as the class's is.
	leafCensMin []int64
	// Fragmentation: the last sample (at fragT: GPU milli stranded, the
	// paper's fragmentation, free) and their integrals over the window.
	fragT          int64
	fragLast       [3]float64
	fragInt        [3]float64
	fragSampled    bool
	strandedSeries []float64
	// bySize collects every wait by class and job size (GPUs requested),
	// for the longest waits and the waits of large jobs.
	bySize  *waits.Table
	scratch []float64
}

func newMetrics(cfg Config, gpuCap int64, jobs, leaves, teams int) *metrics {
	b := max(cfg.Buckets, 1)
	m := &metrics{cfg: cfg, gpuCap: gpuCap, teams: teams, kept: make([]float64, jobs),
		util: make([]float64, b), wasteSeries: make([]float64, b), pend: make([]float64, b),
		alloc: make([]int64, leaves), dem: make([]int64, leaves), fs: make([]float64, leaves), fsIn: make([]float64, leaves),
		held: make([]float64, leaves), fair: make([]float64, leaves), fairIn: make([]float64, leaves),
		leafJobs: make([]int, leaves), leafEvictions: make([]int, leaves), leafWaits: make([][]int64, leaves), leafCensMin: slices.Repeat([]int64{-1}, leaves),
		bySize: waits.New(classNames()), strandedSeries: make([]float64, b)}
	m.bucketW = float64(max(cfg.Horizon-cfg.WindowStart, 1)) / float64(b)
	return m
}

// addAlloc and addDemand record a change of a leaf's allocated GPUs and of
// the GPUs its waiting jobs ask for.
func (m *metrics) addAlloc(leaf int32, d int64) {
	if d != 0 {
		m.alloc[leaf] += d
		m.dirty = true
	}
}

func (m *metrics) addDemand(leaf int32, d int64) {
	if d != 0 {
		m.dem[leaf] += d
		m.dirty = true
	}
}

// shares recomputes the fair shares from the current allocations and demands.
func (m *metrics) shares() {
	m.dirty = false
	remaining := float64(m.gpuCap)
	for c := trace.NumClasses - 1; c >= 0; c-- {
		lo, hi := c*m.teams, (c+1)*m.teams
		var want, held float64
		for q := lo; q < hi; q++ {
			// A running job's allocation is part of what its queue asks
			// for; waiting jobs add their full demand.
			want += float64(m.alloc[q] + m.dem[q])
			held += float64(m.alloc[q])
		}
		give := math.Min(want, remaining)
		remaining -= give
		m.waterFill(give, lo, hi, m.fs)
		m.waterFill(held, lo, hi, m.fsIn)
	}
}

// waterFill divides total among leaves lo..hi-1 equally, no leaf above its
// demand (allocated + waiting), into out.
func (m *metrics) waterFill(total float64, lo, hi int, out []float64) {
	caps := m.scratch[:0]
	for q := lo; q < hi; q++ {
		caps = append(caps, float64(m.alloc[q]+m.dem[q]))
	}
	m.scratch = caps
	level := waterLevel(total, caps)
	for q := lo; q < hi; q++ {
		out[q] = math.Min(level, float64(m.alloc[q]+m.dem[q]))
	}
}

// waterLevel returns the level L such that Σ min(L, caps[i]) = total (or
// the largest cap when total covers every cap). caps is reordered.
func waterLevel(total float64, caps []float64) float64 {
	sort.Float64s(caps)
	rest := total
	for i, c := range caps {
		n := float64(len(caps) - i)
		if c*n >= rest {
			return rest / n
		}
		rest -= c
	}
	if len(caps) == 0 {
		return 0
	}
	return caps[len(caps)-1]
}

// integrate adds the interval [from, to) at the given levels: to the
// utilisation and fairness terms over the window and to the time series,
// which runs from the window's start to the horizon (so it shows the queue
// draining).
func (m *metrics) integrate(from, to, alloc int64, pending int) {
	if to <= from {
		return
	}
	w0, w1 := m.cfg.WindowStart, m.cfg.WindowEnd
	if a, b := max(from, w0), min(to, w1); a < b {
		dt := float64(b - a)
		m.busy += float64(alloc) * dt
		if m.dirty {
			m.shares()
		}
		for q := range m.alloc {
			m.held[q] += float64(m.alloc[q]) * dt
			m.fair[q] += m.fs[q] * dt
			m.fairIn[q] += m.fsIn[q] * dt
		}
	}
	m.spread(from, to, float64(alloc), m.util)
	m.spread(from, to, float64(pending), m.pend)
}

// spread adds level × the overlap of [from, to) with each time-series bucket.
func (m *metrics) spread(from, to int64, level float64, series []float64) {
	w0 := m.cfg.WindowStart
	a, b := max(from, w0), min(to, m.cfg.Horizon)
	if a >= b || level == 0 {
		return
	}
	x0, x1 := float64(a-w0), float64(b-w0)
	last := len(series) - 1
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
		series[i] += level * d
		x0 = end
	}
}

// wasted records that level GPU milli were allocated to work thrown away
// over [from, to).
func (m *metrics) wasted(from, to int64, level int64) {
	if a, b := max(from, m.cfg.WindowStart), min(to, m.cfg.WindowEnd); a < b {
		m.waste += float64(level) * float64(b-a)
	}
	m.spread(from, to, float64(level), m.wasteSeries)
}

// keep records that job id's work over [from, to) at level GPU milli is
// kept (saved by completion, a checkpoint or a shrink, or still running).
// Goodput is measured over one fixed span, the same for every policy: from
// the window's start to the horizon (the last arrival plus -tail), so work
// a policy only defers within the run still counts, and only work thrown
// away or pushed past the horizon is missing.
//
// With costly checkpoints, the share Save/Checkpoint of every period went
// to writing the checkpoint, not to work, and is left out (the last,
// partial period of a run is counted the same way: a slight undercount).
func (m *metrics) keep(id int32, from, to, level int64) {
	if a, b := max(from, m.cfg.WindowStart), min(to, m.cfg.Horizon); a < b {
		work := float64(level) * float64(b-a)
		if cp := m.cfg.Checkpoint; cp > 0 && m.cfg.Save > 0 {
			work *= float64(cp-m.cfg.Save) / float64(cp)
		}
		m.kept[id] += work
	}
}

// evicted records the eviction of job v for cause c: level GPU milli of
// work since lostFrom are lost; the run had lasted ran seconds.
func (m *metrics) evicted(s *sim, v int32, c cause, lostFrom, level, ran int64) {
	j := &s.jobs[v]
	m.byCause[c]++
	m.byClass[j.Class]++
	m.leafEvictions[s.env.leafIndex(j)]++
	if ran < m.cfg.ThrashWindow {
		m.thrash++
	}
	lost := float64(level) * float64(s.now-lostFrom)
	m.lostMilliS += lost
	if s.infeasible(v) {
		m.lostInfeas += lost
	}
	m.wasted(lostFrom, s.now, level)
}

func (m *metrics) shrunk(*sim, int32, int) { m.shrinks++ }

func (m *metrics) scenario(ok bool) {
	if ok {
		m.scenarioOK++
	} else {
		m.scenarioNo++
	}
}

func (m *metrics) failedStart(s *sim, id int32, start, level int64) {
	m.failedStarts++
	m.failedMilliS += float64(level) * float64(s.now-start)
	m.wasted(start, s.now, level)
}

func (m *metrics) complete(s *sim, id int32) {
	j := &s.jobs[id]
	m.completed++
	m.goodDone += m.kept[id]
	m.kept[id] = 0
	w := s.st[id].done - j.Arrival - j.Runtime
	m.waits[j.Class] = append(m.waits[j.Class], w)
	m.bySize.Add(int(j.Class), j.GPUDemand(), w, waits.Done)
	q := s.env.leafIndex(j)
	m.leafJobs[q]++
	m.leafWaits[q] = append(m.leafWaits[q], w)
}

// finish adds the censored waits of feasible jobs unfinished at the end.
func (m *metrics) finish(s *sim) {
	end := s.now
	for i := range s.st {
		st := &s.st[i]
		j := &s.jobs[i]
		id := int32(i)
		work := st.progress
		switch st.status {
		case statusDone:
			continue
		case statusDeactivated:
			m.deactivated++
			continue
		case statusRunning:
			work += int64(st.active) * (end - st.segStart)
			m.keep(id, st.segStart, end, int64(st.active)*j.TaskGPU())
		case statusPending, statusBackoff:
		default:
			if j.Arrival > end {
				continue // not arrived before the horizon
			}
		}
		m.goodInProgress += m.kept[id]
		if s.infeasible(id) {
			m.goodInfeasible += m.kept[id]
			continue
		}
		m.unfinished++
		w := end - j.Arrival - work/int64(j.Tasks)
		m.waits[j.Class] = append(m.waits[j.Class], w)
		if m.censored[j.Class] == 0 || w < m.censoredMin[j.Class] {
			m.censoredMin[j.Class] = w
		}
		m.censored[j.Class]++
		end := waits.Waiting
		if st.status == statusRunning {
			end = waits.Running
		}
		m.bySize.Add(int(j.Class), j.GPUDemand(), w, end)
		s.rec.atEnd(s, id, w)
		q := s.env.leafIndex(j)
		m.leafJobs[q]++
		m.leafWaits[q] = append(m.leafWaits[q], w)
		if c := m.leafCensMin[q]; c < 0 || w < c {
			m.leafCensMin[q] = w
		}
	}
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

// gpuHours converts GPU milli-seconds to GPU-hours.
func gpuHours(milliS float64) float64 { return milliS / 1000 / 3600 }

func (m *metrics) result(s *sim) report.Result {
	r := report.Result{
		Policy:       s.pol.Name,
		Completed:    m.completed,
		Unfinished:   m.unfinished,
		Thrash:       m.thrash,
		LostGPUHours: gpuHours(m.lostMilliS),
		Cycles:       m.cycles,

		FailedStarts:        m.failedStarts,
		FailedStartGPUHours: gpuHours(m.failedMilliS),
		Deactivated:         m.deactivated,
	}
	if span := m.cfg.WindowEnd - m.cfg.WindowStart; span > 0 && m.gpuCap > 0 {
		c := float64(m.gpuCap) * float64(span)
		r.Utilisation = report.Utilisation{Total: m.busy / c, Useful: (m.busy - m.waste) / c, Wasted: m.waste / c}
	}
	r.GoodputGPUHours = gpuHours(m.goodDone + m.goodInProgress)
	r.Goodput = report.Goodput{Done: gpuHours(m.goodDone), InProgress: gpuHours(m.goodInProgress), InProgressInfeasible: gpuHours(m.goodInfeasible)}
	m.evictionResult(&r)
	r.Guards = guardsResult(s)
	r.Wait = m.waitResult()
	// Longest waits and waits by job size, highest class first.
	r.Waits = m.bySize.Summary()
	slices.Reverse(r.Waits)
	r.Fragmentation = m.fragmentationResult(s.now)
	m.fairnessResult(&r, s.env)
	m.seriesResult(&r)
	r.Notes = s.pol.notes(s)
	return r
}

// evictionResult fills r's evictions by cause and class and the work they
// lost.
func (m *metrics) evictionResult(r *report.Result) {
	r.Evictions.Shrinks = m.shrinks
	for c := range numCauses {
		r.Evictions.Total += m.byCause[c]
	}
	r.Evictions.Preempt, r.Evictions.Reclaim = m.byCause[causePreempt], m.byCause[causeReclaim]
	r.Evictions.TimeBased, r.Evictions.Requeue = m.byCause[causeTimeBased], m.byCause[causeRequeue]
	r.Evictions.LS, r.Evictions.Burstable, r.Evictions.BE = m.byClass[trace.ClassLS], m.byClass[trace.ClassBurstable], m.byClass[trace.ClassBE]
	r.LostInfeasibleGPUHours = gpuHours(m.lostInfeas)
}

// waitResult is the wait-time distribution of each class, highest first.
func (m *metrics) waitResult() []report.ClassWait {
	var out []report.ClassWait
	for c := trace.Class(trace.NumClasses - 1); ; c-- {
		w := slices.Clone(m.waits[c])
		slices.Sort(w)
		cw := report.ClassWait{Class: c.String(), Jobs: len(w), Censored: m.censored[c],
			P50: percentile(w, 50), P95: percentile(w, 95), P99: percentile(w, 99)}
		// A censored wait at or below a percentile could, had the job
		// finished, have moved above it and raised it: the percentile is
		// then only a lower bound. Censored waits above it cannot move it.
		if m.censored[c] > 0 {
			cmin := float64(m.censoredMin[c])
			cw.P50LowerBound, cw.P95LowerBound, cw.P99LowerBound = cmin <= cw.P50, cmin <= cw.P95, cmin <= cw.P99
		}
		out = append(out, cw)
		if c == 0 {
			break
		}
	}
	return out
}

// fairnessResult fills r's per-queue figures and fairness indexes.
func (m *metrics) fairnessResult(r *report.Result, e *Env) {
	var across []float64
	for c := trace.Class(trace.NumClasses - 1); ; c-- {
		var within []float64
		for t := range m.teams {
			q := int(c)*m.teams + t
			qr := report.QueueResult{Queue: e.leafName(q), Jobs: m.leafJobs[q], Evictions: m.leafEvictions[q],
				HeldGPUHours: gpuHours(m.held[q]), FairGPUHours: gpuHours(m.fair[q]), FairInClassGPUHours: gpuHours(m.fairIn[q])}
			if m.fair[q] > 0 {
				qr.ShareOfFair = m.held[q] / m.fair[q]
				across = append(across, min(qr.ShareOfFair, 1))
			}
			if m.fairIn[q] > 0 {
				qr.ShareOfFairInClass = m.held[q] / m.fairIn[q]
				within = append(within, qr.ShareOfFairInClass)
			}
			w := slices.Clone(m.leafWaits[q])
			slices.Sort(w)
			qr.WaitP95 = percentile(w, 95)
			qr.WaitP95LowerBound = m.leafCensMin[q] >= 0 && float64(m.leafCensMin[q]) <= qr.WaitP95
			r.Queues = append(r.Queues, qr)
		}
		r.Fairness.WithinClass = append(r.Fairness.WithinClass, report.ClassFairness{Class: c.String(), Jain: jain(within), MinShare: minOr1(within)})
		if c == 0 {
			break
		}
	}
	r.Fairness.Across = jain(across)
	r.Fairness.MinShare = minOr1(across)
}

// seriesResult fills r's time series, normalised by bucket width and
// capacity.
func (m *metrics) seriesResult(r *report.Result) {
	for i := range m.util {
		norm := m.bucketW * float64(max(m.gpuCap, 1))
		r.UtilSeries = append(r.UtilSeries, m.util[i]/norm)
		r.UsefulSeries = append(r.UsefulSeries, (m.util[i]-m.wasteSeries[i])/norm)
		r.PendingSeries = append(r.PendingSeries, m.pend[i]/m.bucketW)
	}
}

// minOr1 is the smallest of xs, 1 for none.
func minOr1(xs []float64) float64 {
	if len(xs) == 0 {
		return 1
	}
	return slices.Min(xs)
}

// classNames names the classes in Class order (the waits table's index).
func classNames() []string {
	out := make([]string, trace.NumClasses)
	for c := range out {
		out[c] = trace.Class(c).String()
	}
	return out
}

// fragmentation records a sample taken at now: GPU milli stranded, the
// paper's fragmentation and free. The previous sample holds until now.
func (m *metrics) fragmentation(now int64, stranded, paper, free float64) {
	m.closeFragmentation(now)
	m.fragT, m.fragLast, m.fragSampled = now, [3]float64{stranded, paper, free}, true
}

// closeFragmentation integrates the last sample over [fragT, to) within
// the window, and spreads the stranded GPUs over the time series.
func (m *metrics) closeFragmentation(to int64) {
	if !m.fragSampled {
		return
	}
	if a, b := max(m.fragT, m.cfg.WindowStart), min(to, m.cfg.WindowEnd); a < b {
		for k, v := range m.fragLast {
			m.fragInt[k] += v * float64(b-a)
		}
	}
	m.spread(m.fragT, to, m.fragLast[0], m.strandedSeries)
	m.fragT = to
}

// fragmentationResult is the window's fragmentation figures.
func (m *metrics) fragmentationResult(end int64) report.Fragmentation {
	m.closeFragmentation(end)
	var f report.Fragmentation
	if span := float64(m.cfg.WindowEnd - m.cfg.WindowStart); span > 0 {
		f.StrandedGPUs = m.fragInt[0] / 1000 / span
		f.PaperGPUs = m.fragInt[1] / 1000 / span
		f.FreeGPUs = m.fragInt[2] / 1000 / span
	}
	if m.fragInt[2] > 0 {
		f.StrandedShare = m.fragInt[0] / m.fragInt[2]
		f.PaperRate = m.fragInt[1] / m.fragInt[2]
	}
	for _, v := range m.strandedSeries {
		f.StrandedSeries = append(f.StrandedSeries, v/m.bucketW/1000)
	}
	return f
}
