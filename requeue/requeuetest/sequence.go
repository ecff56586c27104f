package requeuetest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
)

// sequence is one random run of operations on one fresh model, together
// with the kit's expectations: which jobs run, and the marks it may roll
// back to with the state each one must restore.
type sequence[M requeue.Model] struct {
	cfg     config
	seq     int
	rng     *rand.Rand
	state   func(M) string
	m       M
	tx      requeue.Transactional // m, when it keeps its own transactions
	j       requeue.Journal
	jobs    []string
	runs    []bool // runs[i]: jobs[i] runs, as far as the contract says
	unknown []string
	frames  []mark // marks the sequence may roll back to, oldest first
	nextID  int

	// Savepoint bookkeeping (Transactional models only): the savepoints
	// still valid, oldest first; the values a rollback invalidated (and the
	// model has not issued again); every value issued.
	marks   []requeue.Savepoint
	invalid map[requeue.Savepoint]bool
	issued  map[requeue.Savepoint]bool

	step  int
	trace []string
	fail  *Failure
}

// mark is a point the sequence can return to: a journal checkpoint, a
// savepoint for a Transactional model, and what must hold there.
type mark struct {
	id    int // the number of a checkpoint the trace shows; -1 for an operation's own mark
	cp    requeue.Checkpoint
	sp    requeue.Savepoint
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
func (r *sequence[M]) play(newModel func() M, fresh string) (f *Failure) {
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
	if got := r.state(r.m); got != fresh {
		r.failState("a fresh model is not in the state of the first one", fresh, got)
		return r.fail
	}
	r.checkpoint()
	for r.step = 1; r.step <= r.cfg.steps && r.fail == nil; r.step++ {
		r.randomOp()
	}
	if r.fail == nil && len(r.frames) > 0 {
		r.step--
		r.logf("rollback to #%d (end of sequence)", r.frames[0].id)
		r.restore(r.frames[0], fmt.Sprintf("rolling back to #%d at the end of the sequence", r.frames[0].id))
	}
	return r.fail
}

func (r *sequence[M]) randomOp() {
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
		r.rollbackInvalidated()
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
		delete(r.invalid, mk.sp)
		r.issued[mk.sp] = true
		mk.at = len(r.marks)
		r.marks = append(r.marks, mk.sp)
	}
	return mk
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
	if err := r.j.Rollback(mk.cp); err != nil {
		return r.failf("%s: Journal.Rollback = %v: the model committed or rolled back the journal it was given", what, err)
	}
	if r.tx != nil {
		if err := r.tx.Rollback(mk.sp); err != nil {
			return r.failf("%s: Rollback(%d) of a valid savepoint = %v", what, mk.sp, err)
		}
		for _, sp := range r.marks[mk.at+1:] {
			r.invalid[sp] = true
		}
		r.marks = r.marks[:mk.at+1]
		for _, sp := range r.marks { // a value still valid is not invalid
			delete(r.invalid, sp)
		}
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
	if !r.j.Valid(mk.cp) {
		return r.failf("%s committed or rolled back the journal it was given (a model only records undo steps in it)", op)
	}
	return true
}

func (r *sequence[M]) evict(want string) {
	id, i, kind := r.pick(want)
	mk := r.newMark()
	err := r.m.Evict(&r.j, id)
	op := fmt.Sprintf("Evict(%q)", id)
	r.logf("%s [%s job] = %v", op, kind, err)
	if !r.journalIntact(op, mk) {
		return
	}
	switch {
	case kind == kindRunning && err != nil:
		r.failf("%s of a running job failed: %v", op, err)
		return
	case kind != kindRunning && err == nil:
		r.failf("%s of a %s job returned no error (the contract: an error for a job that is unknown or not running)", op, kind)
		return
	case err != nil:
		r.restore(mk, "rolling back the failed "+op+", which must record every change it made,")
		return
	}
	r.runs[i] = false
	if r.rng.IntN(4) == 0 {
		r.logf("rollback to before %s", op)
		r.restore(mk, "undoing "+op)
	}
}

// place tries a job of the kind and reports whether it now runs.
func (r *sequence[M]) place(want string) bool {
	id, i, kind := r.pick(want)
	mk := r.newMark()
	ok, err := r.m.Place(&r.j, id)
	op := fmt.Sprintf("Place(%q)", id)
	r.logf("%s [%s job] = %v, %v", op, kind, ok, err)
	if !r.journalIntact(op, mk) {
		return false
	}
	switch {
	case kind == kindPending && err != nil:
		r.failf("%s of a pending job returned an error: %v", op, err)
		return false
	case kind != kindPending && err == nil:
		r.failf("%s of a %s job returned %v and no error (the contract: an error for a job that is unknown or already running)", op, kind, ok)
		return false
	case err != nil || !ok:
		// As the engine does: roll back whatever a failed Place recorded.
		r.restore(mk, "rolling back "+op+", which failed and must record every change it made,")
		return false
	}
	r.runs[i] = true
	if r.rng.IntN(4) == 0 {
		r.logf("rollback to before %s", op)
		r.restore(mk, "undoing "+op)
		return false
	}
	return true
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

// rollbackInvalidated rolls a Transactional model back to a savepoint that
// an earlier rollback invalidated: it must fail and change nothing.
func (r *sequence[M]) rollbackInvalidated() {
	if len(r.invalid) == 0 {
		r.rollbackUnknown()
		return
	}
	stale := make([]requeue.Savepoint, 0, len(r.invalid))
	for sp := range r.invalid {
		stale = append(stale, sp)
	}
	slices.Sort(stale) // map order is random; the sequence must not be
	r.refused(stale[r.rng.IntN(len(stale))], "invalidated by an earlier rollback")
}

// rollbackUnknown rolls a Transactional model back to a savepoint it never
// issued: it must fail and change nothing.
func (r *sequence[M]) rollbackUnknown() {
	var top requeue.Savepoint
	for sp := range r.issued {
		top = max(top, sp)
	}
	candidates := []requeue.Savepoint{top + 1, top + 1000, requeue.Savepoint(r.rng.Uint64()), 0, 1, 2}
	for _, sp := range candidates[r.rng.IntN(len(candidates)):] {
		if !r.issued[sp] {
			r.refused(sp, "never issued")
			return
		}
	}
	r.checkpoint()
}

func (r *sequence[M]) refused(sp requeue.Savepoint, why string) {
	before := r.state(r.m)
	err := r.tx.Rollback(sp)
	r.logf("Rollback(%d) [%s] = %v", sp, why, err)
	if err == nil {
		r.failf("Rollback(%d) of a savepoint %s returned no error", sp, why)
		return
	}
	if got := r.state(r.m); got != before {
		r.failState(fmt.Sprintf("Rollback(%d) of a savepoint %s failed but changed the state", sp, why), before, got)
	}
}

func (r *sequence[M]) logf(format string, args ...any) {
	r.trace = append(r.trace, fmt.Sprintf(format, args...))
}

// failf records the first failure and returns false.
func (r *sequence[M]) failf(format string, args ...any) bool {
	if r.fail == nil {
		r.fail = &Failure{
			Problem:  fmt.Sprintf(format, args...),
			Seed:     r.cfg.seed,
			Sequence: r.seq,
			Step:     r.step,
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
