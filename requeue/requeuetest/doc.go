// Package requeuetest checks an embedder's [requeue.Model] the way
// testing/fstest.TestFS checks a file system: one call, nil or an error
// that says what the model got wrong. The engine changes a model
// virtually, thousands of times per cycle, and relies on undoing those
// changes exactly; a model that forgets an undo step does not crash, it
// drifts. [TestModel] looks for that with random sequences of the
// engine's operations.
//
//	func TestSessionModel(t *testing.T) {
//		err := requeuetest.TestModel(
//			func() *SessionModel { return newSessionModel(fixture) },
//			func(m *SessionModel) string { return m.Dump() },
//			[]string{"train-a", "train-b"}, // running
//			[]string{"serve", "notebook"},  // pending
//		)
//		if err != nil {
//			t.Fatal(err)
//		}
//	}
//
// The state text must render everything later decisions depend on (free
// resources per node, where each task runs, cached totals) and nothing
// that varies legitimately (pointers, map order); fmt.Sprint of a snapshot
// of maps and slices is a good start (the reference cluster.Model.Snapshot is one).
// Pick jobs so that every outcome happens: pending jobs that fit at once,
// after an eviction, and never; gangs if the model places them; for hints,
// a pending job the fit bound rules out and pending jobs of one shape. A
// fixture on which an outcome never happens is an error naming it, unless
// [Options].AllowUnexercised is set.
//
// Each sequence starts from a fresh model and an empty [requeue.Journal]
// and performs Evict and Place on running, pending and unknown jobs,
// checkpoints, rollbacks (sometimes twice to one checkpoint), commits, and
// engine-like attempts; it ends with a rollback to its oldest valid
// checkpoint. TestModel reports:
//
//   - an Evict of a running job that fails, or of another that does not;
//   - a Place of a pending job that errs, or of another that does not;
//   - an answer of Place or MayFit that differs from the last one given
//     in the same state text (a cache the state text does not render, say
//     one that makes Place refuse a job that fits);
//   - a rollback or Commit that does not leave the state exactly as it
//     should, and a model method that commits or rolls back the journal;
//   - a panic in a model method, an undo step, newModel or state.
//
// For a model with hints ([requeue.FitBounder], [requeue.Shaper]) it also
// reports a hint that changes the state, rules out a job that Place then
// places (or errs on), answers false for an unknown job or victim, names a
// shape for an unknown job, or gives two jobs one shape that Place or
// MayFit tell apart.
//
// For a [requeue.Transactional] model each checkpoint also takes a
// savepoint and records its rollback in the journal, as the engine does.
// It reports a Rollback of a valid savepoint (nested, in any order) that
// fails or restores another state, and a refused Rollback of an
// invalidated or never-returned value that changed the state. With
// [Options].StrictSavepoints, every value other than a valid savepoint
// must be refused. A never-repeating counter plus a stack of valid
// savepoints passes; a bare log length does not (after a rollback and new
// operations the same length names another state).
//
// The first failure stops the run and returns an error whose message
// gives the problem, the seed, sequence and step with the Options that
// replay it, the expected and actual state texts and their difference,
// and the trace of the failing sequence. Sequences are drawn from
// math/rand/v2's PCG seeded with the seed and the sequence number, so a
// deterministic model replays a failure with the Options it names.
//
// Cost: each operation renders the state once or twice, which dominates;
// the kit's bookkeeping is O(1) amortised per operation plus a hash of the
// state text per question. It calls the model from one goroutine. It
// checks the contract the engine relies on, not a placement policy.
package requeuetest
