package eligibility

// Event is one decision a component made, as an [Observer] sees it: who
// decided (Source), about which job, and the [Decision]. It is tenure's one
// event shape: the expected-runtime nominator reports its nominations and
// skips as Events,
// and the requeue engine its outcomes and rolled-back attempts.
type Event struct {
	// Source names the deciding component, a stable label: the nominator's
	// plugin name (its Name, "expectedruntime" by default) or the
	// requeue engine's name ("requeue" by default).
	Source string
	// Job is the ID of the job decided about.
	Job string
	// Other is the other job involved, when there is one: the contender of
	// a rolled-back requeue attempt. Empty otherwise.
	Other string
	// Decision is the decision: Allowed, Reason (the metric label) and
	// Until.
	Decision
	// Err is the bad data behind the decision, when there is some (the
	// parse error behind invalid_duration, a model's error). Nil otherwise.
	Err error
}

// Observer receives decisions as they are made. The embedder maps them to
// its metrics and logs; [ObserverFunc] adapts a function.
//
// Contract: Observe is called synchronously, on the goroutine of the call
// that made the decision, in the order of the decisions; it must not call
// back into the component that called it and should be cheap (it runs once
// per decision). The Event is a copy the observer may keep.
type Observer interface {
	Observe(e Event)
}

// ObserverFunc adapts a function to [Observer].
type ObserverFunc func(e Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e Event) { f(e) }
