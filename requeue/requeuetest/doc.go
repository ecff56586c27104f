// Package requeuetest checks an embedder's [requeue.Model] the way
// testing/fstest.TestFS checks a file system: a test calls one function,
// and gets nil or an error that says what the model got wrong.
//
// The requeue engine changes a model virtually, thousands of times per
// scheduling cycle, and relies on rolling those changes back exactly. A
// model that forgets to record one undo step, records a wrong one, or
// changes state on a failed placement does not crash: it drifts, and the
// engine then commits evictions against a cluster that does not exist.
// [TestModel] looks for such models with random sequences of the
// operations the engine performs.
//
// # Use
//
// Give TestModel a constructor of a fresh model, a rendering of the
// model's state as text, and the IDs of the jobs that run and that wait in
// a fresh model:
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
// The constructor must return the same state at every call. The state text
// must cover everything later decisions depend on (free resources per
// node, where each task runs, any cached totals or indexes) and nothing
// that legitimately varies (pointers, map order): two models are in the
// same state exactly when their texts are equal. fmt prints maps sorted by
// key, so fmt.Sprint of a snapshot made of maps and slices is a good
// start; [cluster.Model.Snapshot] is one. A state text that leaves
// something out cannot catch a model that forgets to restore it.
//
// Pick jobs so that all outcomes happen: pending jobs that fit at once,
// ones that fit only after an eviction, and one that never fits; gangs if
// the model places gangs; for a model with hints (below), pending jobs of
// the same shape, and running jobs on different domains. A dozen jobs on a
// few nodes is plenty. A fixture on which, in the whole run, no Evict
// succeeds, no Place succeeds or no Place returns false (or, with hints,
// MayFit, MayFitAfter or MayEverFit never rules a pending job out, no two pending jobs
// share a shape, or no job lands apart from the domains of a job evicted
// for it) leaves part of the contract unchecked: TestModel then returns an
// error that names what never happened, unless [AllowUnexercised] is given.
//
// # What is checked
//
// Each sequence starts from a fresh model with an empty [requeue.Journal]
// and performs random operations: Evict and Place on running, pending and
// unknown jobs; checkpoints; rollbacks to any checkpoint still valid, and
// sometimes twice to the same one; commits; and engine-like attempts
// (checkpoint, evict a running job, place up to three pending ones, then
// keep or roll back). Like the engine, the kit rolls back every operation
// that fails. A sequence ends with a rollback to its oldest checkpoint
// still valid. TestModel reports:
//
//   - Evict of a running job that fails; Evict of a pending or unknown job
//     that does not fail;
//   - Place of a pending job that returns an error; Place of a running or
//     unknown job that does not (false without an error is not enough);
//   - Place of a job that answers otherwise than it did the last time the
//     model was in the same state (the same state text): a model with a
//     cache the state text does not render (of refusals, say, that an
//     eviction or a rollback should have cleared) refuses a job that fits,
//     and the engine, which trusts one failed attempt for a state, keeps
//     a victim it could have used;
//   - a rollback that does not restore the state exactly: to a
//     checkpoint, right after a successful operation, or after a failed
//     one (a failed Place may change the state only through steps it
//     records);
//   - a Commit of the journal that changes the state;
//   - a model method that commits or rolls back the journal it is given;
//   - a panic in any model method, undo step or the state function.
//
// The kit tracks which jobs run from the results the contract demands (a
// successful Evict makes a job pending, a successful Place makes it run, a
// rollback restores the statuses of its checkpoint), so a model whose
// rollback restores the visible state but not its own idea of which jobs
// run is caught by the next Evict or Place.
//
// # Hints
//
// The engine trusts a model's optional hints to skip work: a
// [requeue.FitBounder] that says a job cannot fit saves a placement attempt
// (and, for a victim, the eviction), a [requeue.SetFitBounder] that says no
// set of victims can make room saves evicting any of them, and a
// [requeue.Shaper] key makes one failed attempt stand for every job of the
// shape. A wrong hint does not crash anything: the engine then evicts a
// victim for a contender that fitted without it, or misses one that fits.
// When the model implements them, TestModel checks them from time to time
// in the state the sequence has reached, and reports:
//
//   - a MayFit that changes the state;
//   - a MayFit, MayFitAfter or MayEverFit that answers a question (one
//     job, with the same victims) otherwise than it did the last time the
//     model was in the same state;
//   - a MayFit that answers false for a job the model does not know, or
//     for any job with a victim it does not know;
//   - a MayFit that answers false for a pending job that Place, after
//     evicting the victim (none for ""), does place, or fails with an
//     error;
//   - a MayFitAfter ([requeue.SetFitBounder]) that changes the state, or
//     answers false for a job the model does not know or with a victim
//     it does not know;
//   - a MayFitAfter that answers false for a pending job and some running
//     jobs although Place of the job, after evicting some subset of them
//     (the empty one included), does place it, or fails with an error;
//   - a MayEverFit ([requeue.CapacityBounder]) that changes the state,
//     or answers false for a job the model does not know or a running
//     one;
//   - a MayEverFit that answers false for a pending job although Place of
//     the job, as things are or after evicting every running job, does
//     place it, or fails with an error;
//   - a Shape that changes the state, or returns ok for an unknown job;
//   - two pending jobs with equal Shape keys for which Place, in the same
//     state (as is, and after evicting a running job), returns different
//     results, or MayFit gives different answers.
//
// The locality hint ([requeue.Localizer]: Domains(job, dst) appends the keys
// of the domains, nodes for instance, where a running job holds
// resources) lets the engine search for sets of victims near each other
// instead of among all of them; it is detected by its method set. A domain
// is any unit of resource that only the jobs naming it can free: a model
// with a resource shared across nodes (a queue's quota, say) names it as a
// domain of every job that uses it. TestModel reports:
//
//   - a Domains that changes the state, drops what dst held, names a key
//     twice, or names any key for a job that is unknown or pending;
//   - a Domains that answers differently for one job in one state: asked
//     twice, or when the sequence comes back to a state it has seen;
//   - a pending job that fits after evicting a set of running jobs, but
//     not after evicting only those whose domains meet the domains it
//     occupies once placed: the others, by the contract, freed nothing it
//     uses, and the engine may leave them running. A hint that omits a
//     domain of a job, or names none for a running one, is caught here.
//     Place must find room again in the second state, as first fit does:
//     the room it used in the first is still free there.
//
// # Models with their own transactions
//
// When the model implements [requeue.Transactional], each checkpoint also
// takes a savepoint, and, as the engine does, records the rollback to it
// as an undo step of the journal right after the checkpoint: one rollback
// of the journal undoes the steps the model recorded there and rolls the
// model back to its savepoints, newest first, in the reverse order of the
// changes. So a model may keep some changes in its own transactions and
// record others in the journal (evictions in one, placements in the
// other). On top of the checks above, TestModel reports:
//
//   - a Rollback of a valid savepoint that fails or does not restore the
//     state it marked; nested savepoints are rolled back to in any order;
//   - a Rollback of a savepoint that a rollback to an older one
//     invalidated, if it fails but changes the state, or succeeds but
//     leaves a state other than the one the savepoint marked (the kit
//     tries these while the journal holds no undo steps of the model);
//   - a Rollback of a value that Savepoint never returned (far from all
//     the values it did return) that fails but changes the state.
//
// A model may accept an invalidated savepoint whose state it can restore
// exactly (a [requeue.Journal] checkpoint taken at the position rolled
// back to stays valid, for one); the kit counts that as a rollback to the
// savepoint. A model may even accept a value it never returned, if the
// value names a state of its history (the serial number of one of its
// operations, say); the kit cannot tell which state that is, and ends the
// sequence there. With [StrictSavepoints], every value other than a valid
// savepoint must be refused, and the kit also tries values next to the
// ones issued. A Commit of the journal ends the savepoints taken before
// it: the kit no longer rolls back to them, as the engine does not.
//
// The simplest scheme that passes, StrictSavepoints included: a counter
// that never repeats plus a stack of marks. Number savepoints with the
// counter, push each on the stack, pop those above sp on a Rollback(sp),
// and refuse every value that is not on the stack. A savepoint that is only
// the length of an operation log, as a scheduler's statement keeps it,
// fails on its own: after a rollback and new operations, the same length
// names a different state. Keep such lengths on a stack of marks too.
//
// # Failures and replay
//
// The first failure stops the run and comes back as a [*Failure]: the
// problem, the seed, the sequence and step, the operations of the sequence
// up to the failure, and the expected and actual state texts when a state
// was not restored. The sequences are drawn from math/rand/v2's PCG
// seeded with the seed and the sequence number, so with a deterministic
// model the same seed and the same [Steps] replay the same failure (the
// report says which options to pass); [Seed], [Sequences] and [Steps]
// change the exploration. A model that is not deterministic still
// gets every check; only the replay may differ.
//
// # Cost and limits
//
// The default run is [DefaultSequences] sequences of [DefaultSteps]
// operations; each operation renders the state once or twice, which
// dominates the cost (the kit's own bookkeeping is O(1) amortised per
// operation, plus one hash of the state text per Place or fit question,
// to look up the answer last given in that state), and a check of the
// hints renders it a few times more. The answers are kept for one
// sequence. Keep the rendering cheap: it is what a run spends its time on.
//
// The kit checks the contract the engine relies on, not a scheduler's
// placement policy: it does not know whether a job should have fit, only
// that the model answers consistently and undoes exactly. It calls the
// model from one goroutine, as the engine does. Besides requeue, the
// package uses only the standard library, so it adds no dependency to an
// embedder's tests.
package requeuetest
