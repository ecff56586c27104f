// Package requeue decides what happens after a job is nominated to give its
// resources back: the transactional engine that virtually evicts a victim and
// tries to place higher-priority work, committing or rolling back; the journal
// behind those transactions; a reference in-memory resource model; requeue
// backoff; and queue ordering.
//
// # Journal
//
// (section owned by the journal)
//
// # Reference resource model
//
// (section owned by the model)
//
// # Engine
//
// (section owned by the engine)
//
// # Backoff
//
// (section owned by backoff)
//
// # Queue order
//
// (section owned by queue order)
package requeue
