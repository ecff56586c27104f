package eligibility

// Event is one decision as an [Observer] sees it.
type Event struct {
	// Source names the deciding component, a label: the nominator's Name
	// or the requeue engine's.
	Source string
	// Job is the ID of the job decided about.
	Job string
	// Other is the other job involved (the contender of a rolled-back
	// requeue attempt), if any.
	Other string
	// Decision: Allowed, Reason (the metric label) and Until.
	Decision
	// Err is the bad data behind the decision, if any.
	Err error
}

// Observer receives decisions: the embedder maps them to its metrics and
// logs. Observe is called synchronously, in decision order, once per
// decision; it must be cheap and must not call back into the component.
type Observer interface {
	Observe(e Event)
}

// ObserverFunc adapts a function to [Observer].
type ObserverFunc func(e Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e Event) { f(e) }
