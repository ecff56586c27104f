package queuetree

import "errors"

// ErrUnknownQueue is the error, wrapped with the package's prefix and the
// name (`unknown queue "name"`), of every lookup in tenure of a queue name
// the tree does not have: errors.Is(err, ErrUnknownQueue) holds for it
// whichever package made the lookup (tenure's Policy.QueueID, package
// eligibility's name-based checks).
var ErrUnknownQueue = errors.New("unknown queue")
