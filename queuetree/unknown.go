package queuetree

import (
	"errors"
	"strconv"
)

// ErrUnknownQueue is the sentinel that every unknown-queue error of tenure
// matches: errors.Is(err, ErrUnknownQueue) holds for an error from any
// package that looked up a queue name the tree does not have.
var ErrUnknownQueue = errors.New("unknown queue")

// UnknownQueueError reports a queue name a [Tree] does not have. The
// packages above (runtime, eligibility, tenure) return it wrapped with
// their own prefix and context, so errors.As finds the name wherever the
// lookup failed, and it matches [ErrUnknownQueue] with errors.Is.
type UnknownQueueError struct {
	// Queue is the name that was looked up.
	Queue string
}

// Error returns `unknown queue "name"`.
func (e *UnknownQueueError) Error() string { return "unknown queue " + strconv.Quote(e.Queue) }

// Is reports whether target is [ErrUnknownQueue].
func (e *UnknownQueueError) Is(target error) bool { return target == ErrUnknownQueue }
