// Package journalhook lets requeue/requeuetest read a requeue.Journal's
// state, which the journal does not export: package requeue sets the
// functions when it is initialised. It cannot name requeue's types (requeue
// imports it), so it takes them as any.
package journalhook

var (
	// Len returns the number of undo steps j (a *requeue.Journal) holds.
	Len func(j any) int
	// Valid reports whether j (a *requeue.Journal) would roll back to cp
	// (a requeue.Checkpoint).
	Valid func(j, cp any) bool
)
