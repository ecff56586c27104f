package sim

import (
	"fmt"
	"slices"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// Preemption. A pending job that fits nowhere may take the resources of
// running jobs its policy allows, task by task: for each of its tasks that
// does not fit, every node is examined; on a node the allowed candidates
// are taken in the library's candidate order (timebased.Compare)
// until the task fits, and the node whose victims' highest priority is
// lowest, then the fewest, then losing the least work, then the lowest
// index, is used. A victim that is not
// elastic (or would fall below its minimum) is evicted whole, freeing its
// tasks on every node; an elastic victim may instead lose single tasks,
// each one a scenario checked by minruntime.Validator (which refuses
// to take a still-protected elastic job below its minimum). Nothing is
// committed until every task of the preemptor has a place; otherwise the
// tentative changes are undone.

// preemptScratch is the state of one preemption attempt, reused.
type preemptScratch struct {
	free  cluster.NodeFree
	units []unit
	// placed: the preemptor's tasks placed tentatively (task t on node
	// placed[t]); freed: victim tasks given back tentatively.
	placed []int32
	freed  []cluster.TaskRef
	// Victims chosen so far in the attempt, in the order first chosen:
	// whole evictions and shrinks (with the tasks taken).
	victims []chosen
	// The best node's choice while nodes are compared, and the current
	// node's.
	best, cur []chosen
	wake      int64
	tasks     []minruntime.Task
	// The current node's choice: victims and the work they would lose.
	curK    int
	curLost int64
	// fail remembers, per node, the last few preemptors that failed there
	// (failWays entries per node, the oldest replaced), the node's version
	// then, and the earliest instant a denial there may lift (0: none);
	// examined says whether it counted toward the examined nodes.
	fail     []nodeFail
	failNext []uint8
	scen     [1]minruntime.Victim
}

type nodeFail struct {
	job      int32
	ver      uint64
	until    int64
	examined bool
}

// NoFailCache turns the failure memory off (a test checks that it changes
// no decision).
var NoFailCache = false

// failWays is how many failed preemptors each node remembers.
const failWays = 4

// failed returns p's failure on node n at version ver, or nil.
func (ps *preemptScratch) failed(n int, p int32, ver uint64) *nodeFail {
	for i := n * failWays; i < (n+1)*failWays; i++ {
		if f := &ps.fail[i]; f.job == p && f.ver == ver {
			return f
		}
	}
	return nil
}

// remember records a failure on node n.
func (ps *preemptScratch) remember(n int, f nodeFail) {
	for i := n * failWays; i < (n+1)*failWays; i++ {
		if ps.fail[i].job == f.job {
			ps.fail[i] = f
			return
		}
	}
	k := ps.failNext[n]
	ps.fail[n*failWays+int(k)] = f
	ps.failNext[n] = (k + 1) % failWays
}

// unit is one candidate task on a node, with the library's decision about
// its job.
type unit struct {
	ref      cluster.TaskRef
	dec      timebased.Decision
	deferred bool // protected elastic: the scenario validator decides
}

// chosen is one victim of an attempt: evicted whole, or shrunk by tasks.
type chosen struct {
	job   int32
	whole bool
	tasks []int32 // shrink: the tasks taken
}

func findChosen(cs []chosen, v int32) int {
	for i := range cs {
		if cs[i].job == v {
			return i
		}
	}
	return -1
}

// taken reports whether task r is already freed in this attempt.
func (ps *preemptScratch) taken(r cluster.TaskRef) bool {
	if i := findChosen(ps.victims, r.Job); i >= 0 {
		return ps.victims[i].whole || slices.Contains(ps.victims[i].tasks, r.Task)
	}
	return false
}

// shrinkCount returns how many tasks of v the attempt (and the node under
// examination) already takes.
func (ps *preemptScratch) shrinkCount(v int32) int32 {
	n := 0
	if i := findChosen(ps.victims, v); i >= 0 {
		n += len(ps.victims[i].tasks)
	}
	if i := findChosen(ps.cur, v); i >= 0 {
		n += len(ps.cur[i].tasks)
	}
	return int32(n)
}

// preempt tries to start pending job p by evicting (or shrinking) running
// jobs its policy allows. It returns true when p runs.
func (s *sim) preempt(p int32) bool {
	j := &s.jobs[p]
	if !s.pol.mayPreempt(s, p) || !s.mayCauseEvictions(p) {
		return false
	}
	ps := &s.pre
	ps.placed = ps.placed[:0]
	ps.freed = ps.freed[:0]
	ps.victims = ps.victims[:0]
	ps.wake = 0
	s.pol.setPreemptor(s, p)
	s.prepareTasks(p)
	for t := range j.Tasks {
		n := s.fitFor(p)
		if n < 0 {
			n = s.bestNode(p)
			if n < 0 {
				s.undoPreempt(p)
				if ps.wake > 0 {
					s.wakeAt(ps.wake)
				}
				return false
			}
			s.applyChoice(ps.best)
			if !s.c.Free[n].Fits(j) {
				panic(fmt.Sprintf("simulate: internal error: job %s does not fit node %d after preemption", j.Name, n))
			}
		}
		s.takeTask(p, int(t), n)
		ps.placed = append(ps.placed, int32(n))
	}
	// Commit: the victims' bookkeeping, then the preemptor's start.
	for _, c := range ps.victims {
		if c.whole {
			expired := s.pol.noteEviction(s, p, c.job)
			s.recordEviction(c.job)
			s.evictFreed(c.job, p, s.causeOf(p, c.job, expired))
		} else {
			s.shrinkFreed(c.job, p, c.tasks)
		}
	}
	s.book(p)
	return true
}

// undoPreempt gives back what an unsuccessful attempt took: the
// preemptor's tasks and the victims' tasks it freed.
func (s *sim) undoPreempt(p int32) {
	ps := &s.pre
	j := &s.jobs[p]
	for t := len(ps.placed) - 1; t >= 0; t-- {
		s.c.Give(int(ps.placed[t]), j, s.taskGPUs(p, t))
		s.st[p].nodes[t] = -1
	}
	for i := len(ps.freed) - 1; i >= 0; i-- {
		r := ps.freed[i]
		s.c.TakeExact(int(s.st[r.Job].nodes[r.Task]), &s.jobs[r.Job], s.taskGPUs(r.Job, int(r.Task)))
	}
}

// applyChoice frees, tentatively, what a node's choice takes: every task of
// a whole victim, the listed tasks of a shrunk one.
func (s *sim) applyChoice(cs []chosen) {
	ps := &s.pre
	for _, c := range cs {
		st := &s.st[c.job]
		i := findChosen(ps.victims, c.job)
		if i < 0 {
			ps.victims = append(ps.victims, chosen{job: c.job})
			i = len(ps.victims) - 1
		}
		v := &ps.victims[i]
		free := func(t int32) {
			r := cluster.TaskRef{Job: c.job, Task: t}
			s.c.Give(int(st.nodes[t]), &s.jobs[c.job], s.taskGPUs(c.job, int(t)))
			ps.freed = append(ps.freed, r)
		}
		if c.whole {
			for t, n := range st.nodes {
				if n >= 0 && !slices.Contains(v.tasks, int32(t)) {
					free(int32(t))
				}
			}
			v.whole = true
			v.tasks = v.tasks[:0]
			continue
		}
		for _, t := range c.tasks {
			free(t)
			v.tasks = append(v.tasks, t)
		}
	}
}

// preemptNodeLimit bounds the nodes one preemption attempt examines (those
// where evicting every candidate of a low enough class could make room):
// on large clusters a full scan per attempt would make the simulation
// quadratic. Schedulers bound their preemption dry runs likewise
// (kube-scheduler's DefaultPreemption stops after a number of candidate
// nodes, starting from a random offset). Clusters of up to this many nodes,
// the embedded trace's 31 among them, are searched in full.
const preemptNodeLimit = 64

// victimLimit is the highest class a victim of p may have: below p's own,
// or p's own when equal priorities may be taken (time-based) or p is High
// (it may preempt its team queue's other jobs of its class).
func (s *sim) victimLimit(p int32) trace.Class {
	c := s.jobs[p].Class
	if !s.pol.Equal && !s.jobs[p].High {
		c--
	}
	return c
}

// bestNode finds the node where evicting allowed candidates makes room for
// one more task of p — the node whose victims' highest priority is lowest,
// then the fewest victims, then the least lost work, then the lowest index
// — leaving its choice in s.pre.best; -1 when no node works.
func (s *sim) bestNode(p int32) int {
	ps := &s.pre
	j := &s.jobs[p]
	if s.jobs[p].Class == 0 && !s.pol.Equal && !s.jobs[p].High {
		return -1 // nothing is lower than the lowest class
	}
	limit := s.victimLimit(p)
	next := s.candidates(p, j, limit)
	s.m.searches++
	best := nodeChoice{node: -1}
	examined := 0
	for examined < preemptNodeLimit {
		n := next()
		if n < 0 {
			break
		}
		ok, counted := s.examineNode(p, n, j, limit)
		if counted {
			examined++
		}
		if !ok {
			continue
		}
		c := nodeChoice{node: n, k: ps.curK, lost: ps.curLost}
		for _, v := range ps.cur {
			c.top = max(c.top, s.jobs[v.job].Priority())
		}
		if best.node < 0 || c.beats(best) {
			best = c
			ps.best = copyChoice(ps.best, ps.cur)
		}
	}
	if examined >= preemptNodeLimit && next() >= 0 {
		s.m.searchesCapped++ // stopped with candidates left
	}
	return best.node
}

// nodeChoice is a node where preemption would make room, and what it
// would cost: the highest victim priority, the tasks evicted and the work
// lost.
type nodeChoice struct {
	node int
	top  int32
	k    int
	lost int64
}

// beats reports whether c is a better choice than o: a lower highest
// victim priority, then fewer tasks evicted, then less work lost, then the
// lower node index.
func (c nodeChoice) beats(o nodeChoice) bool {
	return c.top < o.top || c.top == o.top && (c.k < o.k || c.k == o.k && (c.lost < o.lost || c.lost == o.lost && c.node < o.node))
}

// candidates returns an iterator over the candidate nodes for preemptor p:
// those where evicting every task of class <= limit would make room (the
// freeable tree finds them), once around the cluster from a start that
// depends on the preemptor; it returns -1 when none is left.
func (s *sim) candidates(p int32, j *trace.Job, limit trace.Class) func() int {
	d := cluster.Demand(j)
	nn := len(s.c.Nodes)
	from := 0
	if nn > 0 {
		from = int(uint64(p) * 2654435761 % uint64(nn))
	}
	n, wrapped := from-1, false
	return func() int {
		m := s.c.FreeableNext(limit, n+1, d)
		if m < 0 && !wrapped {
			wrapped = true
			m = s.c.FreeableNext(limit, 0, d)
		}
		if m < 0 || wrapped && m >= from {
			return -1
		}
		n = m
		return m
	}
}

// examineNode asks whether preempting on node n makes room for p
// (evaluateNode), unless the node cannot hold p even empty, is reserved
// for another job, or failed for p before and has not changed since. It
// reports whether room was found, with the choice in s.pre.cur, and
// whether the node counts against preemptNodeLimit.
func (s *sim) examineNode(p int32, n int, j *trace.Job, limit trace.Class) (ok, examined bool) {
	ps := &s.pre
	if !s.c.EmptyFits(n, j) || !s.nodeUsable(n, p) {
		return false, false
	}
	// A node this preemptor already failed on, unchanged since and
	// before any denial there may lift, fails again.
	if f := ps.failed(n, p, s.c.NodeVer[n]); f != nil && !NoFailCache && (f.until == 0 || s.now < f.until) {
		if f.until > 0 && (ps.wake == 0 || f.until < ps.wake) {
			ps.wake = f.until
		}
		return false, f.examined
	}
	rec := nodeFail{job: p, ver: s.c.NodeVer[n]}
	if !s.roomIfEvicted(n, j, limit) {
		ps.remember(n, rec)
		return false, false
	}
	rec.examined = true
	wake := ps.wake
	ps.wake = 0
	ok = s.evaluateNode(p, n, limit)
	rec.until = ps.wake
	if wake > 0 && (ps.wake == 0 || wake < ps.wake) {
		ps.wake = wake
	}
	if !ok {
		ps.remember(n, rec)
	}
	return ok, true
}

// evaluateNode asks the policy about the candidates on node n and takes
// them in the library's order until one task of p fits (tryNode); it
// reports whether that works, the choice in s.pre.cur. Denials lower
// s.pre.wake to when they may lift.
func (s *sim) evaluateNode(p int32, n int, limit trace.Class) bool {
	ps := &s.pre
	ps.units = ps.units[:0]
	for _, r := range s.c.Running[n] {
		v := r.Job
		if s.jobs[v].Class > limit || ps.taken(r) {
			continue
		}
		d, ok, deferred, until := s.pol.decide(s, p, v)
		if !ok {
			if until > s.now && (ps.wake == 0 || until < ps.wake) {
				ps.wake = until
			}
			continue
		}
		ps.units = append(ps.units, unit{ref: r, dec: d, deferred: deferred})
	}
	if len(ps.units) == 0 {
		return false
	}
	slices.SortStableFunc(ps.units, func(a, b unit) int {
		if c := timebased.Compare(a.dec, b.dec); c != 0 {
			return c
		}
		return int(a.ref.Task) - int(b.ref.Task)
	})
	var ok bool
	ps.curK, ps.curLost, ok = s.tryNode(p, n)
	return ok
}

// copyChoice copies src into dst, reusing dst's slices.
func copyChoice(dst, src []chosen) []chosen {
	for len(dst) < len(src) {
		dst = append(dst, chosen{})
	}
	dst = dst[:len(src)]
	for i, c := range src {
		dst[i].job, dst[i].whole = c.job, c.whole
		dst[i].tasks = append(dst[i].tasks[:0], c.tasks...)
	}
	return dst
}

// tryNode takes node n's sorted candidates (s.pre.units) until one task of
// p fits, recording the choice in s.pre.cur; it returns the number of
// victims and the GPU milli-seconds they would lose.
func (s *sim) tryNode(p int32, n int) (k int, lost int64, ok bool) {
	ps := &s.pre
	j := &s.jobs[p]
	ps.free.CopyFrom(&s.c.Free[n])
	ps.cur = ps.cur[:0]
	var blocked []int32
	for _, u := range ps.units {
		if ps.free.Fits(j) {
			break
		}
		v := u.ref.Job
		if slices.Contains(blocked, v) {
			continue
		}
		ci := findChosen(ps.cur, v)
		if ci >= 0 && ps.cur[ci].whole {
			continue // all its tasks here are freed already
		}
		vj, vst := &s.jobs[v], &s.st[v]
		take := ps.shrinkCount(v) + 1
		if vst.active > vj.MinTasks {
			// Elastic: one task more, if the scenario is allowed.
			if !s.pol.scenarioAllowed(s, p, v, take) {
				blocked = append(blocked, v)
				continue
			}
			if vst.active-take >= vj.MinTasks {
				if ci < 0 {
					ps.cur = append(ps.cur, chosen{job: v})
					ci = len(ps.cur) - 1
					k++
				}
				ps.cur[ci].tasks = append(ps.cur[ci].tasks, u.ref.Task)
				ps.free.Give(vj, s.taskGPUs(v, int(u.ref.Task)))
				continue
			}
			// Below its minimum the job cannot run: evicted whole.
		}
		if ci < 0 {
			ps.cur = append(ps.cur, chosen{job: v})
			ci = len(ps.cur) - 1
			k++
		}
		c := &ps.cur[ci]
		for _, r := range s.c.Running[n] {
			if r.Job == v && !slices.Contains(c.tasks, r.Task) && !ps.taken(r) {
				ps.free.Give(vj, s.taskGPUs(v, int(r.Task)))
			}
		}
		c.whole = true
		c.tasks = c.tasks[:0]
		lost += s.lostIfEvicted(v)
	}
	return k, lost, ps.free.Fits(j)
}

// roomIfEvicted reports whether one task of j would fit on node n if every
// running task of class <= limit were gone: a cheap bound that spares
// asking the policy about nodes where no choice of victims can work.
func (s *sim) roomIfEvicted(n int, j *trace.Job, limit trace.Class) bool {
	ps := &s.pre
	ps.free.CopyFrom(&s.c.Free[n])
	if ps.free.Fits(j) {
		return true
	}
	for _, r := range s.c.Running[n] {
		if s.jobs[r.Job].Class <= limit && !ps.taken(r) {
			ps.free.Give(&s.jobs[r.Job], s.taskGPUs(r.Job, int(r.Task)))
		}
	}
	return ps.free.Fits(j)
}
