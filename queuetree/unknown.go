package queuetree

import "errors"

// ErrUnknownQueue is wrapped by the error of every lookup in tenure of a
// queue name the tree does not have (`unknown queue "name"`).
var ErrUnknownQueue = errors.New("unknown queue")
