package requeue

// Observer receives an [Engine] pass's events as they happen: every outcome
// (commits, keeps, skips with their reason, deferrals) and every rolled-back
// placement attempt. The embedder maps them to its metrics and logs. A nil
// Observer in [EngineConfig] costs nothing.
//
// Contract: methods are called synchronously from [Engine.Run], on its
// goroutine, in the order of the events; they must not call back into the
// engine or the model and should be cheap. The Outcome is a copy the
// observer may keep (its slices are shared with the result: do not modify
// them).
type Observer interface {
	// ObserveOutcome is called once per nominated job, with its outcome.
	ObserveOutcome(o Outcome)
	// ObserveRollback is called for each placement attempt of contender in
	// victim's resources that was rolled back (did not fit, or the model
	// returned an error).
	ObserveRollback(victim, contender string)
}
