package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/cluster"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// requeuePass is the expected-runtime requeue (KAI-Scheduler's
// expectedruntime plugin, PR #941, and the Requeue action it feeds). It runs
// after a cycle's allocation and preemption, with the jobs those left
// pending as contenders, as the design describes: a job past its expected
// runtime is evicted only when that lets a contender run that could not run
// otherwise. tenure's eligibility.Nominator nominates the running jobs past
// their expected runtime (and not in a cooldown), and requeue.Engine
// virtually evicts them, one at a time, to place the contenders, committing
// or rolling back. The simulator only supplies the data (jobs with
// annotations, victims, contenders) and the Model.
//
// Jobs opt in through the expected-runtime annotation, which the simulator
// derives from the job's team queue (the nearest -expected-runtime setting
// on the path up). A committed victim gets the engine's not-before
// annotation (cooldown -requeue-delay).
//
// Cost. The nominator's Until says when a running job's outcome can change
// (its expected runtime, a cooldown end), so each job is evaluated when it
// starts and again at that instant, not every cycle; a nominated job stays
// nominated while it runs and is re-evaluated every pass. Contenders are
// the first job of each (queue, shape) group left pending: a later job of
// the group cannot fit where the first did not.
type requeuePass struct {
	// nom is the run's tenure.Policy nominator, asked about one job at a
	// time (see evaluate).
	nom eligibility.Nominator
	s   *sim

	timers timerHeap
	// The nominated set: jobs, their nominations, and each job's index.
	nominated []int32
	nomData   []eligibility.Nomination
	nomPos    map[int32]int
	minimal   []int32 // a pass's contenders of minimal shape
	conts     []requeue.Contender
	victims   []requeue.Victim
	help      []int32 // indices into passIDs and passNoms
	rest      [][]int32
	restAt    []uint64
	restIn    []uint64
	restAll   []int32
	restStamp uint64
	freed     []int32
	// The minimal contenders' classes and shapes, sorted, and a spare.
	prevKeys, minKeys []minKey
	passIDs           []int32
	passNoms          []eligibility.Nomination
	// How many tasks of each contender fit as things are, by cluster
	// version.
	anywhere map[int32]fitCache
	// Shape keys for requeue.Shaper, one string per shape.
	shapeKeys map[shape]string
	// ann holds the annotations of jobs requeued at least once (their
	// not-before); others carry their leaf's.
	ann map[int32]map[string]string

	noms      []eligibility.Nomination
	in        requeue.EngineInput
	contIDs   map[string]int32
	contBkt   map[int32]int32
	model     simModel
	outcomes  map[string]int
	committed int
}

func newRequeuePass() *requeuePass {
	return &requeuePass{nomPos: map[int32]int{}, ann: map[int32]map[string]string{}, anywhere: map[int32]fitCache{}, shapeKeys: map[shape]string{},
		contIDs: map[string]int32{}, contBkt: map[int32]int32{}, outcomes: map[string]int{}}
}

func (r *requeuePass) attach(s *sim) {
	r.s = s
	r.nom = s.pol.Tenure.Nominator()
	r.model = simModel{s: s, ids: map[string]int32{}, placed: map[int32]bool{}}
}

// annotations returns job id's annotations.
func (r *requeuePass) annotations(id int32) map[string]string {
	if a, ok := r.ann[id]; ok {
		return a
	}
	return r.s.env.leafAnn[r.s.env.leafIndex(&r.s.jobs[id])]
}

// ejob is sim.ejob with the job's annotations.
func (r *requeuePass) ejob(id int32) eligibility.Job {
	j := *r.s.ejob(id)
	j.Subgroups = nil // not read by the nominator
	j.Annotations = r.annotations(id)
	return j
}

// evaluate asks the nominator about running job id now: a nominated job
// joins the nominated set, a skipped or not yet eligible one is looked at
// again at the instant the decision names.
func (r *requeuePass) evaluate(id int32) {
	s := r.s
	ej := r.ejob(id)
	o := r.nom.Evaluate(&ej, s.nowT)
	switch {
	case o.Allowed:
		if _, ok := r.nomPos[id]; !ok {
			r.nomPos[id] = len(r.nominated)
			r.nominated = append(r.nominated, id)
			r.nomData = append(r.nomData, o.Nomination)
		}
	case !o.Skip.Until.IsZero():
		r.timers.push(timer{t: secCeil(o.Skip.Until), job: id, run: s.st[id].runs})
	}
}

// started evaluates a job that just started, if its queue opted in.
func (r *requeuePass) started(_ *sim, id int32) {
	if r.annotations(id) != nil {
		r.evaluate(id)
	}
}

// stopped drops a job that stopped running from the nominated set.
func (r *requeuePass) stopped(_ *sim, id int32) {
	i, ok := r.nomPos[id]
	if !ok {
		return
	}
	last := len(r.nominated) - 1
	r.nominated[i], r.nomData[i] = r.nominated[last], r.nomData[last]
	r.nomPos[r.nominated[i]] = i
	r.nominated, r.nomData = r.nominated[:last], r.nomData[:last]
	delete(r.nomPos, id)
}

// run performs one requeue pass at s.now, with the first job of each bucket
// left pending by the cycle as contenders.
func (r *requeuePass) run(s *sim) {
	r.fireTimers(s)
	if len(r.nominated) == 0 || !r.gatherContenders(s) {
		return
	}
	// A snapshot of the nominated set: commits remove jobs from the set.
	r.passIDs = append(r.passIDs[:0], r.nominated...)
	r.passNoms = append(r.passNoms[:0], r.nomData...)
	r.victims = r.victims[:0]
	for i := range r.passNoms {
		r.victims = append(r.victims, requeue.VictimFromNomination(&r.passNoms[i]))
	}
	// The pass goes through the victims in the engine's own order
	// (requeue.VictimDefaultOrder, then job ID), one engine run per victim
	// that could make room for some contender still waiting (mayHelp);
	// the others are passed over without asking the engine, which would
	// keep them whatever it did. A victim's outcome depends only on the
	// state and the contenders still waiting when the engine reaches it,
	// and a victim passed over changes neither, so this decides exactly
	// what one run over every nominated job would. To spare sorting them
	// all, only the victims that may help as things are (help) are sorted;
	// after a commit the others (rest) are looked at again, and those that
	// now may help and come later join help in order.
	if OfferAllNominated {
		r.runAll()
		return
	}
	r.minimalFor()
	r.splitUseful()
	r.runUseful()
}

// fireTimers re-evaluates the jobs whose outcome may have changed by now.
// A nominated job needs no new look: its decision's Until is zero (time
// alone never changes it), and only its stopping (stopped) or a new
// annotation (a requeue, which stops it) can.
func (r *requeuePass) fireTimers(s *sim) {
	for len(r.timers) > 0 && r.timers[0].t <= s.now {
		tm := r.timers.pop()
		if st := &s.st[tm.job]; st.status == statusRunning && st.runs == tm.run {
			r.evaluate(tm.job)
		}
	}
	if len(r.timers) > 0 {
		s.wakeAt(r.timers[0].t) // contenders are waiting: look again then
	}
}

// gatherContenders collects the pass's contenders: the head of each bucket
// the cycle left pending that fits nowhere as things are. It reports
// whether there is any.
func (r *requeuePass) gatherContenders(s *sim) bool {
	clear(r.contIDs)
	clear(r.contBkt)
	clear(r.model.ids)
	r.conts = r.conts[:0]
	for _, b := range s.left {
		id := s.q.head(b)
		j := &s.jobs[id]
		if j.Tasks == 1 && s.fitFor(id) >= 0 {
			// Room freed later in the cycle (by a preemption that freed more
			// than it needed): the next cycle places it. The engine assumes
			// its contenders fit nowhere as things are.
			continue
		}
		r.conts = append(r.conts, requeue.Contender{ID: j.Name, Priority: j.Priority(),
			Queue: s.env.leaf(j), Queued: s.st[id].queueT})
		r.contIDs[j.Name] = id
		r.contBkt[id] = b
		r.model.ids[j.Name] = id
	}
	return len(r.conts) > 0
}

// splitUseful puts the pass's victims that may help as things are in help,
// and files the others under the nodes they run on (rest).
func (r *requeuePass) splitUseful() {
	r.help = r.help[:0]
	r.restStamp++
	r.restAll = r.restAll[:0]
	for i := range r.passIDs {
		if r.mayHelp(r.passIDs[i]) {
			r.help = append(r.help, int32(i))
			continue
		}
		// Not useful as things are: only room a commit leaves on one of its
		// nodes can change that (or, for contenders of several tasks, room
		// it leaves anywhere).
		r.restAll = append(r.restAll, int32(i))
		st := &r.s.st[r.passIDs[i]]
		for t, n := range st.nodes {
			if n >= 0 && slices.Index(st.nodes[:t], n) < 0 {
				r.addRest(int(n), int32(i))
			}
		}
	}
}

// runUseful runs the engine over the useful victims, taken in the engine's
// order from a heap (most passes end after a few commits, when the
// contenders are placed).
func (r *requeuePass) runUseful() {
	h := victimHeap{r: r, xs: r.help}
	h.init()
	for len(h.xs) > 0 && len(r.conts) > 0 {
		i := h.pop()
		if !r.mayHelp(r.passIDs[i]) {
			continue
		}
		r.freed = append(r.freed[:0], r.s.st[r.passIDs[i]].nodes...)
		if !r.runVictim(i) {
			continue
		}
		// A commit: fewer contenders wait, so victims in the heap may no
		// longer be useful (they leave it), and the committed victim's
		// nodes may have room left that makes a later victim useful (it
		// joins).
		if r.minimalFor() {
			h.xs = slices.DeleteFunc(h.xs, func(j int32) bool { return !r.mayHelp(r.passIDs[j]) })
			h.init()
		}
		r.joinAfterCommit(&h, i)
	}
	r.help = h.xs
}

// joinAfterCommit pushes onto h the victims filed under rest that come
// after victim i in the engine's order and may help now that i's commit
// left room on its nodes (anywhere, when a waiting contender has several
// tasks).
func (r *requeuePass) joinAfterCommit(h *victimHeap, i int32) {
	join := func(j int32) {
		if r.restIn[j] == r.restStamp && r.victimCompare(j, i) > 0 && r.mayHelp(r.passIDs[j]) {
			h.push(j)
			r.restIn[j] = 0
		}
	}
	if r.gangWaits() {
		for _, j := range r.restAll {
			join(j)
		}
		return
	}
	for t, n := range r.freed {
		if n >= 0 && slices.Index(r.freed[:t], n) < 0 {
			for _, j := range r.restOn(int(n)) {
				join(j)
			}
		}
	}
}

// gangWaits reports whether a waiting contender has several tasks (then
// room anywhere counts for it).
func (r *requeuePass) gangWaits() bool {
	for _, c := range r.minimal {
		if r.s.jobs[c].Tasks > 1 {
			return true
		}
	}
	return false
}

// victimHeap is a binary heap of the pass's victims in the engine's order.
type victimHeap struct {
	r  *requeuePass
	xs []int32
}

func (h *victimHeap) before(a, b int32) bool { return h.r.victimCompare(a, b) < 0 }

func (h *victimHeap) init() {
	for i := len(h.xs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *victimHeap) down(i int) { siftDown(h.xs, i, h.before) }

func (h *victimHeap) push(x int32) {
	h.xs = append(h.xs, x)
	siftUp(h.xs, len(h.xs)-1, h.before)
}

func (h *victimHeap) pop() int32 {
	x, rest := popMin(h.xs, h.before)
	h.xs = rest
	return x
}

// addRest and restOn keep, per node, the pass's victims not useful so far;
// restIn[i] == restStamp marks those still not useful.
func (r *requeuePass) addRest(n int, i int32) {
	if r.rest == nil {
		r.rest = make([][]int32, len(r.s.c.Nodes))
		r.restAt = make([]uint64, len(r.s.c.Nodes))
	}
	for len(r.restIn) <= int(i) {
		r.restIn = append(r.restIn, 0)
	}
	r.restIn[i] = r.restStamp
	if r.restAt[n] != r.restStamp {
		r.restAt[n] = r.restStamp
		r.rest[n] = r.rest[n][:0]
	}
	r.rest[n] = append(r.rest[n], i)
}

func (r *requeuePass) restOn(n int) []int32 {
	if r.rest == nil || r.restAt[n] != r.restStamp {
		return nil
	}
	return r.rest[n]
}

// victimCompare orders two victims of the pass (indices into passNoms) as
// the engine does.
func (r *requeuePass) victimCompare(a, b int32) int {
	if c := requeue.VictimDefaultOrder(r.s.nowT, &r.victims[a], &r.victims[b]); c != 0 {
		return c
	}
	return strings.Compare(r.victims[a].ID, r.victims[b].ID)
}

// minimalFor collects the minimal shapes of the waiting contenders and
// reports whether their classes and shapes changed. (When they did not,
// a victim in the heap that stopped being useful — a contender was placed
// on its node — is found out when it is taken.)
func (r *requeuePass) minimalFor() bool {
	r.minimal = r.minimal[:0]
	for i := range r.conts {
		r.addMinimal(r.contIDs[r.conts[i].ID])
	}
	keys := r.minKeys[:0]
	for _, c := range r.minimal {
		keys = append(keys, minKey{r.s.jobs[c].Priority(), shapeOf(&r.s.jobs[c])})
	}
	slices.SortFunc(keys, func(a, b minKey) int {
		if a.prio != b.prio {
			return int(a.prio) - int(b.prio)
		}
		return cmpShape(a.sh, b.sh)
	})
	changed := !slices.Equal(keys, r.prevKeys)
	r.minKeys, r.prevKeys = r.prevKeys[:0], keys
	return changed
}

type minKey struct {
	prio int32
	sh   shape
}

func cmpShape(a, b shape) int {
	for _, d := range [...]int64{a.cpu - b.cpu, a.mem - b.mem, int64(a.gpus - b.gpus), int64(a.milli - b.milli), int64(a.tasks - b.tasks)} {
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
	}
	return 0
}

// runAll is the reference the pass is tested against: one engine run over
// every nominated job.
func (r *requeuePass) runAll() {
	r.noms = append(r.noms[:0], r.passNoms...)
	for i := range r.passNoms {
		r.model.ids[r.passNoms[i].Job] = r.passIDs[i]
	}
	r.runNoms()
}

// runVictim runs the engine over one victim (an index into the pass's
// snapshot) and the waiting contenders, applies its decision, and reports
// whether it placed any contender.
func (r *requeuePass) runVictim(i int32) bool {
	r.noms = append(r.noms[:0], r.passNoms[i])
	r.model.ids[r.passNoms[i].Job] = r.passIDs[i]
	return r.runNoms()
}

// runNoms runs the engine over r.noms and the waiting contenders, applies
// its decisions, and reports whether it placed any contender.
func (r *requeuePass) runNoms() bool {
	s := r.s
	r.in.Nominations, r.in.Victims = r.in.Nominations[:0], r.in.Victims[:0]
	r.in.AddNominations(r.noms)
	var m requeue.Model = &r.model
	if !NoModelHints {
		m = &hintedModel{&r.model}
	}
	// The nominations are the pass's own (evaluate asks the nominator one
	// job at a time), so Running is empty: Cycle.Requeue runs the engine
	// over them and the contenders.
	out, err := s.pol.cyc.Requeue(tenure.RequeueInput{Contenders: r.conts, Nominations: r.in.Nominations, Victims: r.in.Victims}, m)
	res := out.Engine
	if err != nil {
		panic(fmt.Sprintf("simulate: internal error: requeue engine: %v", err))
	}
	if n := len(res.ContenderErrors); n > 0 {
		panic(fmt.Sprintf("simulate: internal error: requeue model refused %d contenders: %v", n, res.ContenderErrors[0].Err))
	}
	clear(r.model.placed)
	placed := len(res.FitWithoutEviction) > 0
	for _, o := range res.Outcomes {
		k := o.Kind.String()
		if o.Kind != requeue.OutcomeCommitted {
			k += "/" + string(o.Reason)
		}
		r.outcomes[k]++
		switch o.Kind {
		case requeue.OutcomeCommitted:
			r.commit(o)
			placed = true
		case requeue.OutcomeSkipped:
			if !o.Until.IsZero() {
				s.wakeAt(secCeil(o.Until))
			}
		}
	}
	// Contenders the engine placed in room a commit left, evicting no one
	// for them, start too.
	for _, ff := range res.FitWithoutEviction {
		id := r.model.ids[ff.Contender]
		s.q.removeHead(r.contBkt[id])
		s.book(id)
	}
	if placed {
		r.conts = slices.DeleteFunc(r.conts, func(c requeue.Contender) bool {
			return s.st[r.contIDs[c.ID]].status != statusPending
		})
	}
	return placed
}

// addMinimal adds contender id to the pass's minimal shapes unless a
// contender of its class needs no more than it.
func (r *requeuePass) addMinimal(id int32) {
	s := r.s
	j := &s.jobs[id]
	sh := shapeOf(j)
	for i, m := range r.minimal {
		mj := &s.jobs[m]
		if mj.Priority() != j.Priority() {
			continue
		}
		ms := shapeOf(mj)
		if sh.dominates(ms) {
			return
		}
		if ms.dominates(sh) {
			r.minimal[i] = id
			return
		}
	}
	r.minimal = append(r.minimal, id)
}

// fitsNow returns how many tasks of contender id fit as things are (at
// most its tasks), cached while the cluster is unchanged.
func (r *requeuePass) fitsNow(id int32) int32 {
	s := r.s
	e := r.anywhere[id]
	if e.version != s.c.Version {
		e = fitCache{version: s.c.Version, tasks: s.fitCount(id, s.jobs[id].Tasks)}
		r.anywhere[id] = e
	}
	return e.tasks
}

// OfferAllNominated and NoModelHints turn the pass's victim filter and the
// model's hints to the engine (requeue.Shaper, requeue.FitBounder) off: one
// engine run over every nominated job, every placement attempted (tests
// check that the pass decides the same).
var OfferAllNominated, NoModelHints = false, false

// fitsIfEvicted reports whether contender cid could be placed, all its
// tasks, if running job vid were evicted now. Model.Place puts identical
// tasks first fit, so it places them all exactly when the cluster can hold
// that many: the tasks that fit as things are (fitsNow) plus what freeing
// vid's tasks adds on its nodes. It reads the model's current state.
func (r *requeuePass) fitsIfEvicted(vid, cid int32) bool {
	s := r.s
	cj := &s.jobs[cid]
	st := &s.st[vid]
	need := cj.Tasks
	gain := int32(0)
	f := &s.c.Scratch
	for t, n := range st.nodes {
		if n < 0 || slices.Index(st.nodes[:t], n) >= 0 {
			continue // not running, or a node already looked at
		}
		if !s.resv.usable(int(n), cid) {
			continue
		}
		f.CopyFrom(&s.c.Free[n])
		for u, m := range st.nodes[t:] {
			if m == n {
				f.Give(&s.jobs[vid], s.taskGPUs(vid, t+u))
			}
		}
		after := capacity(f, cj, need)
		if need == 1 {
			if after > 0 {
				return true
			}
			continue // it may fit elsewhere: see below
		}
		f.CopyFrom(&s.c.Free[n])
		gain += after - capacity(f, cj, need)
	}
	return r.fitsNow(cid)+gain >= need
}

// capacity returns how many tasks of j fit into f, at most max; f is
// used up.
func capacity(f *cluster.NodeFree, j *trace.Job, max int32) int32 {
	k := int32(0)
	var gpus [64]uint8
	for k < max && f.Fits(j) {
		f.Take(j, gpus[:0])
		k++
	}
	return k
}

type fitCache struct {
	version uint64
	tasks   int32
}

// mayHelp reports whether evicting running job v now could let some
// waiting contender that may contend for it (by CanContend's rule) run:
// checking the contenders of minimal shape per priority suffices, since a
// contender that fits implies that every smaller one of its priority does.
// Whether a contender may contend depends on its queue too (trace.RankedApart);
// mayHelp admits a priority if it may contend from some queue, so it errs
// only toward asking the engine, which decides exactly.
func (r *requeuePass) mayHelp(v int32) bool {
	s := r.s
	vp := s.jobs[v].Priority()
	equal := s.env.settings.RequeueEqual
	for _, c := range r.minimal {
		if !policies.Contends(s.jobs[c].Priority(), vp, equal) {
			continue
		}
		if r.fitsIfEvicted(v, c) {
			return true
		}
	}
	return false
}

// commit applies a committed outcome: the victim (already freed by the
// model) is evicted and gets its not-before annotation; the contenders
// (already placed) start.
func (r *requeuePass) commit(o requeue.Outcome) {
	s := r.s
	v := r.model.ids[o.Job]
	by := r.model.ids[o.Contenders[0]]
	s.evictFreed(v, by, causeRequeue)
	r.committed++
	ann := map[string]string{eligibility.AnnotationRequeueNotBefore: o.Annotation}
	for k, val := range s.env.leafAnn[s.env.leafIndex(&s.jobs[v])] {
		ann[k] = val
	}
	r.ann[v] = ann
	for _, c := range o.Contenders {
		id := r.model.ids[c]
		s.q.removeHead(r.contBkt[id])
		s.book(id)
	}
}

// timer asks for a job's re-evaluation at t, if it is still in run run.
type timer struct {
	t   int64
	job int32
	run int32
}

type timerHeap []timer

// timerBefore orders timers by instant, then job.
func timerBefore(a, b timer) bool { return a.t < b.t || a.t == b.t && a.job < b.job }

func (h *timerHeap) push(x timer) {
	*h = append(*h, x)
	siftUp(*h, len(*h)-1, timerBefore)
}

func (h *timerHeap) pop() timer {
	top, rest := popMin(*h, timerBefore)
	*h = rest
	return top
}
