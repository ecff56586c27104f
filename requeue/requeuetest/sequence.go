package requeuetest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/internal/journalhook"
)

// sequence is one random run of operations on one fresh model, together
// with the kit's expectations: which jobs run, and the marks it may roll
// back to with the state each one must restore.
type sequence[M requeue.Model] struct {
	cfg    config
	cov    *coverage
	seq    int
	rng    *rand.Rand
	state  func(M) string
	m      M
	tx     requeue.Transactional // m, when it keeps its own transactions
	bound  requeue.FitBounder    // m, when it offers a fit bound
	shaper requeue.Shaper        // m, when it names shapes
	// answers holds, by state text and then question (a Place, a fit
	// hint's question about one job), the answer given the last time the
	// question was asked in that state, in any sequence, to check that a
	// state the kit comes back to gets the same answers.
	answers map[string]map[string]string
	j       requeue.Journal
	jobs    []string
	runs    []bool // runs[i]: jobs[i] runs, as far as the contract says
	moved   []bool // moved[i]: an Evict or Place of jobs[i] succeeded
	unknown []string
	frames  []mark // marks the sequence may roll back to, oldest first
	nextID  int

	// Savepoint bookkeeping (Transactional models only), O(1) amortised
	// per operation: the savepoints still valid, oldest first, and how many
	// times each value is among them; the values a rollback invalidated
	// (and the model has not issued again since), each with what held when
	// it was last issued, and where each is in stale; every value issued,
	// the largest, and the number of savepoints taken.
	saves   []save
	onStack map[uint64]int
	stale   []save
	staleAt map[uint64]int
	issued  map[uint64]bool
	top     uint64
	taken   int
	// The first Rollback error of the current journal rollback, and its
	// savepoint.
	txErr   error
	txErrSp uint64
	// modelEnds holds, oldest first, the journal length after each model
	// method that recorded steps in it, for those still in it.
	modelEnds []int

	step  int
	trace []string
	fail  *failure
	// over is set when the model accepted a rollback to a value it never
	// returned: the kit no longer knows what the state should be, and the
	// sequence ends there.
	over bool
}

// save is a savepoint the kit took, and what held when it was taken.
type save struct {
	sp    uint64
	n     int // the savepoint's number in the sequence: 0, 1, ...
	state string
	runs  []bool
}

// mark is a point the sequence can return to: a journal checkpoint, a
// savepoint for a Transactional model, and what must hold there.
type mark struct {
	id    int // the number of a checkpoint the trace shows; -1 for an operation's own mark
	cp    requeue.Checkpoint
	sp    uint64
	at    int // index of sp in sequence.marks
	state string
	runs  []bool
}

// The kinds of job an operation targets.
const (
	kindRunning = "running"
	kindPending = "pending"
	kindUnknown = "unknown"
)

// play runs the sequence on a fresh model and returns the first failure.
func (r *sequence[M]) play(newModel func() M, fresh string) (f *failure) {
	defer func() {
		if v := recover(); v != nil {
			if r.fail == nil {
				r.failf("panic: %v\n%s", v, stack())
			}
			f = r.fail
		}
	}()
	r.m = newModel()
	r.tx, _ = any(r.m).(requeue.Transactional)
	r.bound, _ = any(r.m).(requeue.FitBounder)
	r.shaper, _ = any(r.m).(requeue.Shaper)
	if got := r.state(r.m); got != fresh {
		r.failState("a fresh model is not in the state of the first one", fresh, got)
		return r.fail
	}
	r.checkpoint()
	for r.step = 1; r.step <= r.cfg.steps && r.fail == nil && !r.over; r.step++ {
		r.randomOp()
	}
	if r.fail == nil && !r.over && len(r.frames) > 0 {
		r.step--
		r.logf("rollback to #%d (end of sequence)", r.frames[0].id)
		r.restore(r.frames[0], fmt.Sprintf("rolling back to #%d at the end of the sequence", r.frames[0].id))
	}
	return r.fail
}

func (r *sequence[M]) randomOp() {
	if (r.bound != nil || r.shaper != nil) && r.rng.IntN(8) == 0 {
		r.hints()
		return
	}
	n := r.rng.IntN(100)
	switch {
	case n < 22:
		r.evict(r.pickKind(70, 15))
	case n < 50:
		r.place(r.pickKind(20, 60))
	case n < 62:
		r.checkpoint()
	case n < 76:
		if len(r.frames) == 0 {
			r.checkpoint()
			return
		}
		r.rollback(r.frames[r.rng.IntN(len(r.frames))])
	case n < 80:
		r.commit()
	case n < 92:
		r.attempt()
	case r.tx == nil:
		r.place(r.pickKind(20, 60))
	case n < 96:
		r.rollbackStale()
	default:
		r.rollbackUnknown()
	}
}

// pickKind draws the kind of job to target: running with weight pr,
// pending with weight pp, unknown with the rest of 100.
func (r *sequence[M]) pickKind(pr, pp int) string {
	n := r.rng.IntN(100)
	switch {
	case n < pr:
		return kindRunning
	case n < pr+pp:
		return kindPending
	}
	return kindUnknown
}

// pick returns a job of the kind (falling back to any known job when there
// is none of that kind), its index in jobs (-1 when unknown) and the kind
// it actually is.
func (r *sequence[M]) pick(kind string) (string, int, string) {
	if kind == kindUnknown {
		return r.unknown[r.rng.IntN(len(r.unknown))], -1, kindUnknown
	}
	var idx []int
	for i, on := range r.runs {
		if on == (kind == kindRunning) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		i := r.rng.IntN(len(r.jobs))
		return r.jobs[i], i, r.kindOf(i)
	}
	i := idx[r.rng.IntN(len(idx))]
	return r.jobs[i], i, kind
}

// argsHint explains a contract failure on jobs[i] that may come from the
// fixture rather than the model: a job that no Evict or Place has moved in
// the sequence has the status the arguments of TestModel gave it.
func (r *sequence[M]) argsHint(i int) string {
	if i < 0 || r.moved[i] {
		return ""
	}
	listed := "pending"
	if r.runs[i] {
		listed = "running"
	}
	return fmt.Sprintf("; %q is listed as %s and no Evict or Place has moved it: if it is not %s in a fresh model, the running and pending arguments may be wrong", r.jobs[i], listed, listed)
}

func (r *sequence[M]) kindOf(i int) string {
	if r.runs[i] {
		return kindRunning
	}
	return kindPending
}

// newMark takes a journal checkpoint and, for a Transactional model, a
// savepoint, and records the state they must restore.
func (r *sequence[M]) newMark() mark {
	mk := mark{id: -1, cp: r.j.Checkpoint(), state: r.state(r.m), runs: slices.Clone(r.runs)}
	if r.tx != nil {
		mk.sp = r.tx.Savepoint()
		mk.at = len(r.saves)
		r.push(save{sp: mk.sp, n: r.taken, state: mk.state, runs: mk.runs})
		r.taken++
		// As the engine does: the rollback to the savepoint is an undo step
		// of the journal, right after the checkpoint, so that one journal
		// rollback undoes the model's undo steps and its own transactions
		// in the reverse order of the changes.
		r.j.RecordUndoer((*txUndo[M])(r), int64(mk.sp), 0)
	}
	return mk
}

// txUndo is the undo step that rolls a Transactional model back to a
// savepoint; it keeps the first error for restore to report. It skips a
// savepoint the kit no longer counts as valid: one that a rollback the
// model accepted to an invalidated savepoint (rollbackStale) invalidated,
// whose step is still in the journal.
type txUndo[M requeue.Model] sequence[M]

func (u *txUndo[M]) Undo(sp, _ int64) {
	r := (*sequence[M])(u)
	if r.onStack[uint64(sp)] == 0 {
		return
	}
	if err := r.tx.Rollback(uint64(sp)); err != nil && r.txErr == nil {
		r.txErr, r.txErrSp = err, uint64(sp)
	}
}

// noteSteps records that a model method, called when the journal held
// before steps, recorded steps of its own in it.
func (r *sequence[M]) noteSteps(before int) {
	if n := journalhook.Len(&r.j); n > before {
		r.modelEnds = append(r.modelEnds, n)
	}
}

// push adds a savepoint the model just returned to the valid ones.
func (r *sequence[M]) push(s save) {
	r.saves = append(r.saves, s)
	r.onStack[s.sp]++
	if i, ok := r.staleAt[s.sp]; ok { // the value names a valid state again
		last := len(r.stale) - 1
		r.staleAt[r.stale[last].sp] = i
		r.stale[i] = r.stale[last]
		r.stale[last] = save{}
		r.stale = r.stale[:last]
		delete(r.staleAt, s.sp)
	}
	r.issued[s.sp] = true
	r.top = max(r.top, s.sp)
}

// invalidate keeps the first k valid savepoints; the values of the others
// that are no longer among them become stale. O(1) amortised: a savepoint
// is invalidated at most once.
func (r *sequence[M]) invalidate(k int) {
	for _, s := range r.saves[k:] { // oldest first: the newest issue of a value wins
		if r.onStack[s.sp]--; r.onStack[s.sp] > 0 {
			continue
		}
		delete(r.onStack, s.sp)
		if i, ok := r.staleAt[s.sp]; ok {
			r.stale[i] = s
			continue
		}
		r.staleAt[s.sp] = len(r.stale)
		r.stale = append(r.stale, s)
	}
	clear(r.saves[k:])
	r.saves = r.saves[:k]
}

func (r *sequence[M]) checkpoint() {
	mk := r.newMark()
	mk.id = r.nextID
	r.nextID++
	r.frames = append(r.frames, mk)
	if r.tx != nil {
		r.logf("checkpoint #%d (savepoint %d)", mk.id, mk.sp)
	} else {
		r.logf("checkpoint #%d", mk.id)
	}
}

// restore rolls the journal and, for a Transactional model, the model back
// to mk, and checks that the state is mk's. what describes the rollback
// for a failure. It reports whether the sequence can go on.
func (r *sequence[M]) restore(mk mark, what string) bool {
	r.txErr = nil
	if err := r.j.Rollback(mk.cp); err != nil {
		return r.failf("%s: Journal.Rollback = %v: the model committed or rolled back the journal it was given", what, err)
	}
	for len(r.modelEnds) > 0 && r.modelEnds[len(r.modelEnds)-1] > journalhook.Len(&r.j) {
		r.modelEnds = r.modelEnds[:len(r.modelEnds)-1]
	}
	if r.tx != nil {
		if r.txErr != nil {
			return r.failf("%s: Rollback(%d) of a valid savepoint = %v", what, r.txErrSp, r.txErr)
		}
		r.invalidate(mk.at + 1)
		// mk stays valid: record its rollback step again, for the next
		// rollback to it.
		r.j.RecordUndoer((*txUndo[M])(r), int64(mk.sp), 0)
	}
	copy(r.runs, mk.runs)
	if got := r.state(r.m); got != mk.state {
		return r.failState(what+" did not restore the state: a change was not recorded, or an undo step is wrong", mk.state, got)
	}
	// The frames after mk are gone; mk itself stays valid. An operation's
	// own mark is newer than every frame.
	for i, f := range r.frames {
		if mk.id < 0 {
			break
		}
		if f.id == mk.id {
			r.frames = r.frames[:i+1]
			break
		}
		if f.id > mk.id {
			r.frames = r.frames[:i]
			break
		}
	}
	return true
}

// journalIntact checks that a model method left the journal's checkpoints
// valid: a model must not commit or roll back the journal it is given.
func (r *sequence[M]) journalIntact(op string, mk mark) bool {
	if !journalhook.Valid(&r.j, mk.cp) {
		return r.failf("%s committed or rolled back the journal it was given (a model only records undo steps in it)", op)
	}
	return true
}

// sameAnswer checks that question, asked in the state whose text is
// state, gets answer, as it did the last time the model was in that state,
// and remembers the answer. It reports whether the sequence can go on.
func (r *sequence[M]) sameAnswer(state, question, answer string) bool {
	byQuestion := r.answers[state]
	if byQuestion == nil {
		byQuestion = map[string]string{}
		r.answers[state] = byQuestion
	}
	if prev, ok := byQuestion[question]; ok && prev != answer {
		return r.failf("%s = %s, but %s the last time the model was in this state (the contract: in one state, the same answer; a cache or other state the state text does not render, or a state text that leaves something out, breaks it)", question, answer, prev)
	}
	byQuestion[question] = answer
	return true
}

// callPlace calls Place(id) on the kit's journal and notes the steps it
// recorded.
func (r *sequence[M]) callPlace(id string) (bool, error) {
	before := journalhook.Len(&r.j)
	placed, err := r.m.Place(&r.j, id)
	r.noteSteps(before)
	return placed, err
}

// samePlace checks that Place(id), called in the state whose text is
// state, answered (placed, err) as it did the last time the model was in
// that state: the engine trusts one failed attempt for a state. It reports
// whether the sequence can go on.
func (r *sequence[M]) samePlace(state, id string, placed bool, err error) bool {
	answer := fmt.Sprint(placed)
	if err != nil {
		answer = "an error"
	}
	return r.sameAnswer(state, fmt.Sprintf("Place(%q)", id), answer)
}

func (r *sequence[M]) evict(want string) {
	id, i, kind := r.pick(want)
	mk := r.newMark()
	before := journalhook.Len(&r.j)
	err := r.m.Evict(&r.j, id)
	r.noteSteps(before)
	op := fmt.Sprintf("Evict(%q)", id)
	r.logf("%s [%s job] = %v", op, kind, err)
	if !r.journalIntact(op, mk) {
		return
	}
	switch {
	case kind == kindRunning && err != nil:
		r.failf("%s of a running job failed: %v%s", op, err, r.argsHint(i))
		return
	case kind != kindRunning && err == nil:
		r.failf("%s of a %s job returned no error (the contract: an error for a job that is unknown or not running)%s", op, kind, r.argsHint(i))
		return
	case err != nil:
		r.restore(mk, "rolling back the failed "+op+", which must record every change it made,")
		return
	}
	r.cov.evicted++
	r.settle(i, false, op, mk)
}

// settle records that op, which succeeded, made jobs[i] run (or stop), and
// undoes it one time in four. It reports whether the change stays.
func (r *sequence[M]) settle(i int, runs bool, op string, mk mark) bool {
	r.runs[i] = runs
	r.moved[i] = true
	if r.rng.IntN(4) == 0 {
		r.logf("rollback to before %s", op)
		r.restore(mk, "undoing "+op)
		return false
	}
	return true
}

// place tries a job of the kind and reports whether it now runs.
func (r *sequence[M]) place(want string) bool {
	id, i, kind := r.pick(want)
	mk := r.newMark()
	ok, err := r.callPlace(id)
	op := fmt.Sprintf("Place(%q)", id)
	r.logf("%s [%s job] = %v, %v", op, kind, ok, err)
	if !r.samePlace(mk.state, id, ok, err) || !r.journalIntact(op, mk) {
		return false
	}
	switch {
	case kind == kindPending && err != nil:
		r.failf("%s of a pending job returned an error: %v%s", op, err, r.argsHint(i))
		return false
	case kind != kindPending && err == nil:
		r.failf("%s of a %s job returned %v and no error (the contract: an error for a job that is unknown or already running)%s", op, kind, ok, r.argsHint(i))
		return false
	case err != nil || !ok:
		if err == nil {
			r.cov.noFit++
		}
		// As the engine does: roll back whatever a failed Place recorded.
		r.restore(mk, "rolling back "+op+", which failed and must record every change it made,")
		return false
	}
	r.cov.placed++
	return r.settle(i, true, op, mk)
}

func (r *sequence[M]) rollback(mk mark) {
	r.logf("rollback to #%d", mk.id)
	if r.restore(mk, fmt.Sprintf("rollback to #%d", mk.id)) && r.rng.IntN(3) == 0 {
		r.logf("rollback to #%d again", mk.id)
		r.restore(mk, fmt.Sprintf("a second rollback to #%d", mk.id))
	}
}

func (r *sequence[M]) commit() {
	before := r.state(r.m)
	err := r.j.Commit()
	r.logf("commit = %v", err)
	if err != nil {
		r.failf("Journal.Commit = %v", err)
		return
	}
	if got := r.state(r.m); got != before {
		r.failState("committing the journal changed the state", before, got)
		return
	}
	r.frames = r.frames[:0]
	r.modelEnds = r.modelEnds[:0]
	// The changes recorded in the journal are kept for good: no savepoint
	// taken before the commit can restore the state it marked (a model may
	// keep part of its state in the journal), and the engine never rolls
	// back to one. They stay issued, so they are not tried as unknown.
	clear(r.saves)
	r.saves = r.saves[:0]
	clear(r.onStack)
	clear(r.stale)
	r.stale = r.stale[:0]
	clear(r.staleAt)
}

// attempt is what the engine does for one victim: mark, evict it, try to
// place up to three contenders, then keep the changes or roll them back.
func (r *sequence[M]) attempt() {
	r.checkpoint()
	mk := r.frames[len(r.frames)-1]
	r.logf("attempt from #%d", mk.id)
	r.evict(kindRunning)
	for range 1 + r.rng.IntN(3) {
		if r.fail != nil {
			return
		}
		r.place(kindPending)
	}
	if r.fail == nil && r.rng.IntN(2) == 0 {
		r.logf("attempt: rollback to #%d", mk.id)
		r.restore(mk, fmt.Sprintf("rolling back the attempt to #%d", mk.id))
	}
}

// rollbackStale rolls a Transactional model back to a savepoint that a
// rollback to an older one invalidated. The model may refuse it (an error,
// and no change), or accept it and restore exactly the state it marked,
// which then counts as a rollback to it: the savepoints taken after it are
// invalid. With StrictSavepoints it must refuse. Only probed while the
// journal holds no steps of the model's own (only the kit's rollbacks to
// savepoints): after a rollback the model accepted, such steps would no
// longer fit the state.
func (r *sequence[M]) rollbackStale() {
	if len(r.stale) == 0 || len(r.modelEnds) > 0 {
		r.rollbackUnknown()
		return
	}
	s := r.stale[r.rng.IntN(len(r.stale))]
	const why = "of a savepoint invalidated by an earlier rollback"
	before := r.state(r.m)
	err := r.tx.Rollback(s.sp)
	r.logf("Rollback(%d) [savepoint invalidated by an earlier rollback] = %v", s.sp, err)
	got := r.state(r.m)
	switch {
	case err != nil:
		if got != before {
			r.failState(fmt.Sprintf("Rollback(%d) %s failed but changed the state", s.sp, why), before, got)
		}
	case r.cfg.strict:
		r.failf("Rollback(%d) %s returned no error (StrictSavepoints: such a savepoint must be refused)", s.sp, why)
	case got != s.state:
		r.failState(fmt.Sprintf("Rollback(%d) %s succeeded but did not restore the state it marked (refuse such a savepoint with an error, or restore exactly its state)", s.sp, why), s.state, got)
	default:
		// Accepted, and exact: a rollback to s. The savepoints taken after
		// it are invalid now, and the frames that rely on them gone.
		copy(r.runs, s.runs)
		k, _ := slices.BinarySearchFunc(r.saves, s.n, func(v save, n int) int { return v.n - n })
		r.invalidate(k)
		for len(r.frames) > 0 && r.frames[len(r.frames)-1].at >= k {
			r.frames = r.frames[:len(r.frames)-1]
		}
	}
}

// rollbackUnknown rolls a Transactional model back to a value it never
// returned from Savepoint. The model must refuse it or change nothing. A
// model may accept a value that names a state of its current history (a
// serial number of one of its operations, say): by default the kit then
// ends the sequence, as it cannot tell what the state should be. With
// StrictSavepoints the kit also tries values next to the ones issued, and
// the model must refuse them all.
func (r *sequence[M]) rollbackUnknown() {
	candidates := []uint64{r.top + 1<<20 + uint64(r.rng.IntN(1<<20)), uint64(r.rng.Uint64())}
	if r.cfg.strict {
		candidates = append(candidates, r.top+1, 0, 1, 2)
	}
	for _, sp := range candidates[r.rng.IntN(len(candidates)):] {
		if r.issued[sp] {
			continue
		}
		const why = "of a value Savepoint never returned"
		before := r.state(r.m)
		err := r.tx.Rollback(sp)
		r.logf("Rollback(%d) [never returned by Savepoint] = %v", sp, err)
		switch got := r.state(r.m); {
		case err != nil:
			if got != before {
				r.failState(fmt.Sprintf("Rollback(%d) %s failed but changed the state", sp, why), before, got)
			}
		case r.cfg.strict:
			r.failf("Rollback(%d) %s returned no error (StrictSavepoints: such a value must be refused)", sp, why)
		default:
			r.logf("the model accepted Rollback(%d): the kit cannot tell which state it should restore, so the sequence ends here", sp)
			r.over = true
		}
		return
	}
	r.checkpoint()
}

func (r *sequence[M]) logf(format string, args ...any) {
	r.trace = append(r.trace, fmt.Sprintf(format, args...))
}

// failf records the first failure and returns false.
func (r *sequence[M]) failf(format string, args ...any) bool {
	if r.fail == nil {
		r.fail = &failure{
			Problem:  fmt.Sprintf(format, args...),
			Seed:     r.cfg.seed,
			Sequence: r.seq,
			Step:     r.step,
			Steps:    r.cfg.steps,
			Trace:    slices.Clone(r.trace),
		}
	}
	return false
}

func (r *sequence[M]) failState(problem, want, got string) bool {
	if r.fail == nil {
		r.failf("%s", problem)
		r.fail.Want, r.fail.Got = want, got
	}
	return false
}
