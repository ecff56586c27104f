package requeuetest

import (
	"fmt"
	"slices"

	"github.com/tenurepolicy/tenure/requeue/internal/journalhook"
)

// hints checks the optional hints of the model, in the current state: the
// engine trusts them to skip placement attempts, so a wrong hint makes it
// evict for nothing or miss a placement.
//
//   - MayFit (requeue.FitBounder) must not change the state, must answer
//     true for an unknown job and for every job when the victim is
//     unknown, and may answer false for a pending job only if Place of that
//     job, after evicting the victim (none for ""), returns false without
//     an error.
//   - Shape (requeue.Shaper) must not change the state and must return ok
//     false for an unknown job; two pending jobs with equal keys must get
//     the same Place result, in this state and after evicting a running
//     job, and the same MayFit answers.
func (r *sequence[M]) hints() {
	victim, vi := "", -1
	switch n := r.rng.IntN(10); {
	case n < 2:
		victim = r.unknown[1]
	case n < 6:
		if id, i, kind := r.pick(kindRunning); kind == kindRunning {
			victim, vi = id, i
		}
	}
	if r.bound != nil {
		r.checkMayFit(victim, vi)
	}
	if r.shaper != nil && r.fail == nil {
		r.checkShapes(victim, vi)
	}
}

// checkMayFit asks MayFit about a random selection of jobs (and an unknown
// one) and checks its answers.
func (r *sequence[M]) checkMayFit(victim string, vi int) {
	var jobs []string
	var idx []int
	for i, id := range r.jobs {
		if r.rng.IntN(2) == 0 {
			jobs, idx = append(jobs, id), append(idx, i)
		}
	}
	jobs, idx = append(jobs, r.unknown[1]), append(idx, -1)
	fits := r.mayFit(victim, jobs)
	if fits == nil {
		return
	}
	call := fmt.Sprintf("MayFit(%q, %q)", victim, jobs)
	for k, id := range jobs {
		switch {
		case fits[k]:
		case idx[k] < 0:
			r.failf("%s set false for %q, a job the model does not know (the contract: true for an unknown job)", call, id)
			return
		case victim != "" && vi < 0:
			r.failf("%s set false for %q with an unknown victim (the contract: true for every job when the victim is unknown)", call, id)
			return
		case !r.runs[idx[k]]:
			r.cov.mayFitFalse++
			if !r.placeFails(victim, id, call+" said it cannot fit") {
				return
			}
		}
	}
}

// mayFit calls MayFit with every answer preset to true, as the engine
// does, and checks that it left the state alone. nil after a failure.
func (r *sequence[M]) mayFit(victim string, jobs []string) []bool {
	fits := make([]bool, len(jobs))
	for i := range fits {
		fits[i] = true
	}
	before := r.state(r.m)
	r.bound.MayFit(victim, jobs, fits)
	r.logf("MayFit(%q, %q) = %v", victim, jobs, fits)
	if got := r.state(r.m); got != before {
		r.failState(fmt.Sprintf("MayFit(%q, %q) changed the state (the contract: MayFit must not)", victim, jobs), before, got)
		return nil
	}
	for i, id := range jobs {
		if !r.sameAnswer(before, fmt.Sprintf("MayFit(%q, [%q])", victim, id), fmt.Sprint(fits[i])) {
			return nil
		}
	}
	return fits
}

// placeFails checks that Place(job) returns false without an error after
// evicting victim (none for ""), then rolls everything back. why says
// what promised it. It reports whether the sequence can go on.
func (r *sequence[M]) placeFails(victim, job, why string) bool {
	ok, done, err := r.tryPlace(victim, job)
	switch {
	case !done:
		return false
	case err != nil:
		return r.failf("%s, but Place(%q) after evicting %q returned an error: %v", why, job, victim, err)
	case ok:
		return r.failf("%s, but Place(%q) after evicting %q placed it: the engine would skip a placement that fits, and evict for nothing", why, job, victim)
	}
	return true
}

// tryPlace evicts victim (unless ""), places job, and rolls both back,
// checking that the state is restored; err is Place's error. done is false
// after a failure.
func (r *sequence[M]) tryPlace(victim, job string) (ok, done bool, err error) {
	mk := r.newMark()
	if victim != "" {
		before := journalhook.Len(&r.j)
		err := r.m.Evict(&r.j, victim)
		r.noteSteps(before)
		if err != nil {
			r.logf("Evict(%q) = %v", victim, err)
			r.failf("Evict(%q) of a running job failed: %v", victim, err)
			return false, false, nil
		}
	}
	// A mark between the two, as the engine takes one before every
	// attempt (a model may keep evictions and placements apart).
	evicted := r.newMark()
	ok, err = r.callPlace(job)
	after := "without eviction"
	if victim != "" {
		after = fmt.Sprintf("after evicting %q", victim)
	}
	r.logf("Place(%q) %s = %v, %v", job, after, ok, err)
	if !r.samePlace(evicted.state, job, ok, err) || !r.journalIntact(fmt.Sprintf("Place(%q)", job), mk) {
		return false, false, nil
	}
	if !r.restore(mk, fmt.Sprintf("rolling back the check of Place(%q) %s", job, after)) {
		return false, false, nil
	}
	return ok, true, err
}

// checkShapes groups the pending jobs by Shape and compares two of equal
// keys: the same Place result, here and after evicting the victim, and
// the same MayFit answers.
func (r *sequence[M]) checkShapes(victim string, vi int) {
	same, ok := r.sameShapeGroup()
	if !ok {
		return
	}
	r.cov.sameShapes++
	a, b := same[0], same[1+r.rng.IntN(len(same)-1)]
	if r.rng.IntN(2) == 0 {
		a, b = b, a
	}
	key, _ := r.shaper.Shape(a)
	r.logf("Shape(%q) = Shape(%q) = %q", a, b, key)
	if victim != "" && vi < 0 {
		victim = "" // an unknown victim cannot be evicted
	}
	for _, v := range slices.Compact([]string{"", victim}) {
		if !r.placedAlike(v, a, b) {
			return
		}
	}
	if r.bound != nil {
		fits := r.mayFit(victim, []string{a, b})
		if fits != nil && fits[0] != fits[1] {
			r.failf("Shape(%q) and Shape(%q) are equal, but MayFit(%q) answers %v for them (the contract: the same answer for one shape)", a, b, victim, fits)
		}
	}
}

// sameShapeGroup checks Shape's contract on an unknown job and on the
// state, then groups the pending jobs by shape key and returns one group
// of two or more, chosen at random; false when there is none or a check
// failed.
func (r *sequence[M]) sameShapeGroup() ([]string, bool) {
	before := r.state(r.m)
	if key, ok := r.shaper.Shape(r.unknown[1]); ok {
		r.failf("Shape(%q) = %q, true for a job the model does not know (the contract: ok false)", r.unknown[1], key)
		return nil, false
	}
	byKey := map[string][]string{}
	var keys []string
	for i, id := range r.jobs {
		if r.runs[i] {
			continue
		}
		if key, ok := r.shaper.Shape(id); ok {
			if len(byKey[key]) == 0 {
				keys = append(keys, key)
			}
			byKey[key] = append(byKey[key], id)
		}
	}
	if got := r.state(r.m); got != before {
		r.failState("Shape changed the state (the contract: Shape must not)", before, got)
		return nil, false
	}
	var groups [][]string
	for _, key := range keys {
		if len(byKey[key]) > 1 {
			groups = append(groups, byKey[key])
		}
	}
	if len(groups) == 0 {
		return nil, false
	}
	return groups[r.rng.IntN(len(groups))], true
}

// placedAlike tries Place for a and b after evicting v ("" for none) and
// reports whether the two answers agree; false (after a failure) when they
// do not or a rollback failed.
func (r *sequence[M]) placedAlike(v, a, b string) bool {
	okA, done, errA := r.tryPlace(v, a)
	if !done {
		return false
	}
	okB, done, errB := r.tryPlace(v, b)
	if !done {
		return false
	}
	if okA != okB || (errA == nil) != (errB == nil) {
		r.failf("Shape(%q) and Shape(%q) are equal, but after evicting %q Place(%q) = %v, %v and Place(%q) = %v, %v (the contract: jobs of one shape are placed alike)", a, b, v, a, okA, errA, b, okB, errB)
		return false
	}
	return true
}
