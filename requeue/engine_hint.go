package requeue

// Shaper is an optional interface of a Model that tells which pending jobs
// are interchangeable for placement: a contender that did not fit in a
// state stands for every contender of its shape in that state, so the
// engine answers their fit tests there without calling Place. Like every
// hint, it changes what a pass costs, never what it decides: the bounds
// count the fit tests it answers.
//
// Contract: Shape returns a key and true for a pending job; in any state
// Place returns (false, nil) for one of two jobs with equal keys exactly
// when it does for the other, and MayFit answers both alike. ok is false
// for a job it cannot vouch for (unknown, running), which is then its own
// shape. Called once per contender and pass; keys are compared, not
// parsed.
type Shaper interface {
	Shape(job string) (key string, ok bool)
}

// FitBounder is an optional interface of a Model that offers a cheap,
// conservative fit test. MayFit sets fits[i] to false only when Place of
// jobs[i] would return (false, nil) in the current state after evicting
// the running job victim ("" for none); true promises nothing. The engine
// asks it with victim "" before each fit test, in the state the test is
// about, and calls Place only on true; the answer changes no decision.
//
// Contract: it changes no state, sets true for an unknown job or victim,
// gets len(fits) == len(jobs) and keeps neither slice. Cost: O(len(jobs))
// or close, once per fit test.
type FitBounder interface {
	MayFit(victim string, jobs []string, fits []bool)
}
