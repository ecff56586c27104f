package reserve

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// Config configures a [Planner]. The zero Config holds no reservation
// (Max is 0): reservations are opt-in.
type Config struct {
	// Max is the most reservations held at a time; 0 holds none. Must not
	// be negative.
	Max int
	// After is how long a pending job must have waited (now - Queued) before
	// it may hold a reservation; a job qualifies at exactly Queued + After.
	// Must not be negative.
	After time.Duration
	// MinUnits limits reservations to requests of at least MinUnits in all
	// (Tasks × Units); 0 admits any size. Must not be negative.
	MinUnits int64
	// MinPriority, when HasMinPriority, limits reservations to requests of
	// at least that priority.
	MinPriority    int32
	HasMinPriority bool
	// MaxReplans bounds the re-plans of one reservation: each time its
	// holder has not started one cycle after its planned start, it is
	// planned again; after MaxReplans re-plans it drains instead (see the
	// package doc). 0 means 3; must not be negative.
	MaxReplans int
	// Engine configures the requeue pass run at a reservation's planned
	// start, with the holder as the only contender and the jobs on its
	// nodes as the nominations: its Filters (min-runtime protection, say)
	// and MaxLostWork hold there as in any pass. A nil CanContend lets the
	// holder evict any job on its nodes, whatever their priorities: the
	// nodes are the holder's from the planned start on.
	Engine requeue.EngineConfig
	// Observer, if not nil, receives a Planner's decisions about pending
	// jobs (why one holds no reservation) and reservations (taken,
	// re-planned, draining, released), with Source "reservation".
	Observer eligibility.Observer
	// Logger, if not nil, receives the same decisions as log lines (Info;
	// Warn for bad_request).
	Logger *slog.Logger
	// Fits, if not nil, says whether one task of r can ever run on node,
	// empty (its CPU, memory, GPU model, selectors: what Units does not
	// say); nil: every node whose Capacity is at least r.Units.
	Fits func(r *Request, node string) bool
	// Protection, if not nil, gives the protection end of a running job
	// whose ProtectedUntil is zero (tenure's Policy sets it to its
	// min-runtime filter's); clock.Last() for a job never evictable.
	Protection func(j *Job) time.Time
}

// defaultMaxReplans is MaxReplans' zero value.
const defaultMaxReplans = 3

// validate returns every problem of c at once, or nil.
func (c *Config) validate() error {
	var errs []error
	if c.Max < 0 {
		errs = append(errs, fmt.Errorf("reserve: Max %d is negative", c.Max))
	}
	if c.After < 0 {
		errs = append(errs, fmt.Errorf("reserve: After %v is negative", c.After))
	}
	if c.MinUnits < 0 {
		errs = append(errs, fmt.Errorf("reserve: MinUnits %d is negative", c.MinUnits))
	}
	if c.MaxReplans < 0 {
		errs = append(errs, fmt.Errorf("reserve: MaxReplans %d is negative", c.MaxReplans))
	}
	if err := c.Engine.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("reserve: Engine: %w", err))
	}
	return errors.Join(errs...)
}

// maxReplans is MaxReplans with its default.
func (c *Config) maxReplans() int {
	if c.MaxReplans == 0 {
		return defaultMaxReplans
	}
	return c.MaxReplans
}

// qualifies reports whether r's size and priority admit it (the wait is
// checked apart: it changes with time alone).
func (c *Config) qualifies(r *Request) bool {
	if c.HasMinPriority && r.Priority < c.MinPriority {
		return false
	}
	return c.MinUnits == 0 || size(r) >= c.MinUnits
}

// size is r's Tasks × Units, saturating at the largest int64.
func size(r *Request) int64 {
	t := int64(r.Tasks)
	if t <= 0 || r.Units <= 0 {
		return 0
	}
	if r.Units > math.MaxInt64/t {
		return math.MaxInt64
	}
	return t * r.Units
}
