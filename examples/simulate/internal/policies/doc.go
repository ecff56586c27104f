// Package policies is where the simulator meets tenure: each compared
// variant ([Registry]) is a [tenure.Policy] built from one
// [tenure.Config] per run ([TenureConfig]: the queue tree with
// KAI-Scheduler's min-runtime fields, the reclaim method, the requeue
// engine's settings, Kueue's backoff), plus the candidate rule for
// preemption (timebased.Config) and the simulator mechanisms
// it switches on.
//
// Decisions are made through a [tenure.Cycle] begun at the simulated
// instant (tenure.Policy.BeginAt):
//
//   - [Policy.MayEvict]: the candidate rule, then Cycle.CheckVictim;
//   - [Policy.MayShrink]: Cycle.ValidateScenario for an elastic victim;
//   - the requeue pass (package sim) calls Cycle.Requeue with the
//     nominations of the Policy's nominator;
//
// What tenure.Policy does not cover is called directly, and named here
// (the readiness backoff of package sim calls backoff.State.Timeout and
// waits for State.RequeueAt):
// timebased.Config and timebased.Compare
// (time-based same-priority preemption, KEP-8522), backoff.QueueOrder (the
// pending queue's order and [Restamp]), and the nominator asked about one
// job at a time (tenure.Cycle.Nominate).
package policies
