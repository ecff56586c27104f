package runtime

import (
	"errors"
	"fmt"
	"time"
)

// Config is the min-runtime configuration: node-pool defaults, the reclaim
// method and per-queue settings. It is a plain value; [NewResolver]
// validates it against a tree and precomputes it. The zero Config is valid
// and protects nothing: both defaults 0, method LCA, no queue settings.
type Config struct {
	// DefaultPreempt is the node-pool level preempt min-runtime: it applies
	// when no queue on the victim's walk sets Preempt. Must be >= 0.
	DefaultPreempt time.Duration
	// DefaultReclaim is the node-pool level reclaim min-runtime: it applies
	// when no queue on the walk sets Reclaim. Must be >= 0.
	DefaultReclaim time.Duration
	// Method chooses how reclaims resolve; the zero value is MethodLCA.
	Method Method
	// Queues holds per-queue settings, at most one entry per queue name, in
	// any order. A queue without an entry sets nothing. Every name must
	// exist in the tree given to NewResolver.
	Queues []QueueSetting
}

// QueueSetting is one queue's optional min-runtimes. A nil field is unset:
// the queue inherits from its parent (ultimately the default). A non-nil
// field is explicit, and an explicit 0 stops inheritance: jobs under it are
// instantly evictable even when an ancestor sets a positive value:
//
//	tenMinutes := 10 * time.Minute
//	runtime.QueueSetting{Queue: "B", Reclaim: &tenMinutes}
type QueueSetting struct {
	Queue   string         // the queue's name in the tree
	Preempt *time.Duration // nil: inherit; must be >= 0 when set
	Reclaim *time.Duration // nil: inherit; must be >= 0 when set
}

// validate reports every problem of c that needs no tree, joined with
// errors.Join, in [NewResolver]'s order: negative defaults, an unknown
// Method, then per entry of Queues an empty name, a name listed twice, a
// negative Preempt or Reclaim. O(q).
func (c Config) validate() error {
	var errs []error
	if c.DefaultPreempt < 0 {
		errs = append(errs, fmt.Errorf("runtime: DefaultPreempt is negative (%s)", FormatDuration(c.DefaultPreempt)))
	}
	if c.DefaultReclaim < 0 {
		errs = append(errs, fmt.Errorf("runtime: DefaultReclaim is negative (%s)", FormatDuration(c.DefaultReclaim)))
	}
	if c.Method > MethodQueue {
		errs = append(errs, fmt.Errorf("runtime: invalid %v (want MethodLCA or MethodQueue)", c.Method))
	}
	seen := make(map[string]int, len(c.Queues))
	for i, s := range c.Queues {
		if s.Queue == "" {
			errs = append(errs, fmt.Errorf("runtime: Queues[%d] has an empty queue name (the implicit root is configured by DefaultPreempt and DefaultReclaim)", i))
		} else if first, dup := seen[s.Queue]; dup {
			errs = append(errs, fmt.Errorf("runtime: queue %q is listed twice (Queues[%d] and Queues[%d])", s.Queue, first, i))
		} else {
			seen[s.Queue] = i
		}
		errs = own(&c.Queues[i]).negativeErrs(s.Queue, errs)
	}
	return errors.Join(errs...)
}

// negativeErrs appends the problems of queue's setting o that a negative
// duration makes, Preempt's first, as validate reports them.
func (o ownSetting) negativeErrs(queue string, errs []error) []error {
	if o.hasPreempt && o.preempt < 0 {
		errs = append(errs, fmt.Errorf("runtime: queue %q: Preempt is negative (%s)", queue, FormatDuration(o.preempt)))
	}
	if o.hasReclaim && o.reclaim < 0 {
		errs = append(errs, fmt.Errorf("runtime: queue %q: Reclaim is negative (%s)", queue, FormatDuration(o.reclaim)))
	}
	return errs
}
