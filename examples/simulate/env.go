package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// env is what every policy of one run shares: the queue tree, the min-runtime
// resolver (also used to measure thrash for every policy) and the settings of
// the tenure variants.
type env struct {
	jobs     []Job
	teams    int
	tree     *queuetree.Tree
	resolver *runtime.Resolver
	leafIDs  []queuetree.ID // by leaf index class*teams + team
	settings settings
}

// settings are the policy parameters shared by the tenure variants.
type settings struct {
	// MinRuntime: queue name -> min-runtime for both preempt and reclaim.
	MinRuntime []queueDuration
	// Expected: queue name -> expected runtime (requeue opt-in).
	Expected []queueDuration
	// RequeueDelay is the cooldown after a requeue.
	RequeueDelay time.Duration
	// RequeueEqual lets pending jobs of equal priority contend for an
	// over-running job's resources (requeue.EngineConfig.CanContend);
	// by default only strictly higher priorities do.
	RequeueEqual bool
	// NoNewer turns the time-based policy's "newer" rule off by giving the
	// library no preemptor timestamp (eligibility.PreemptionRequest: the zero
	// time counts no candidate as newer); only minAdmit expiry remains.
	NoNewer bool
	// MinAdmit is the time-based policy's minAdmitDuration.
	MinAdmit time.Duration
}

type queueDuration struct {
	Queue string
	D     time.Duration
}

// simEpoch is the wall-clock instant of simulated second 0; the library's
// policies take time.Time.
var simEpoch = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

// at converts simulated seconds to a time.Time.
func at(sec int64) time.Time { return simEpoch.Add(time.Duration(sec) * time.Second) }

// secCeil converts a time.Time back to simulated seconds, rounding up; the
// zero time is 0.
func secCeil(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	d := t.Sub(simEpoch)
	s := int64(d / time.Second)
	if d%time.Second > 0 {
		s++
	}
	return s
}

// newEnv builds the queue tree (one top-level queue per class, teams under
// each) and the resolver.
func newEnv(jobs []Job, teams int, set settings) (*env, error) {
	e := &env{jobs: jobs, teams: teams, settings: set}
	var qs []queuetree.Queue
	for c := Class(0); c < numClasses; c++ {
		qs = append(qs, queuetree.Queue{Name: c.queueName()})
		for t := range teams {
			qs = append(qs, queuetree.Queue{Name: teamName(c, t), Parent: c.queueName()})
		}
	}
	tree, err := queuetree.New(qs)
	if err != nil {
		return nil, err
	}
	e.tree = tree
	for c := Class(0); c < numClasses; c++ {
		for t := range teams {
			id, _ := tree.Lookup(teamName(c, t))
			e.leafIDs = append(e.leafIDs, id)
		}
	}
	var cfg runtime.Config
	for _, q := range set.MinRuntime {
		cfg.Queues = append(cfg.Queues, runtime.QueueSetting{Queue: q.Queue, Preempt: runtime.Explicit(q.D), Reclaim: runtime.Explicit(q.D)})
	}
	if e.resolver, err = runtime.NewResolver(tree, cfg); err != nil {
		return nil, err
	}
	var errs []error
	for _, q := range set.Expected {
		if _, ok := tree.Lookup(q.Queue); !ok {
			errs = append(errs, fmt.Errorf("simulate: -expected-runtime: unknown queue %q", q.Queue))
		}
	}
	return e, errors.Join(errs...)
}

// leafIndex returns the dense index of j's team queue: class × teams + team.
func (e *env) leafIndex(j *Job) int32 { return int32(int(j.Class)*e.teams + j.Team) }

// leaf returns j's team queue in the tree.
func (e *env) leaf(j *Job) queuetree.ID { return e.leafIDs[e.leafIndex(j)] }

// teamName returns the name of team queue t of class c, e.g. "ls-a".
func teamName(c Class, t int) string {
	return fmt.Sprintf("%s-%s", c.queueName(), teamSuffix(t))
}

// teamSuffix names teams a, b, ..., z, t26, t27, ...
func teamSuffix(t int) string {
	if t < 26 {
		return string(rune('a' + t))
	}
	return fmt.Sprintf("t%d", t)
}

// action is the kind of eviction when job by evicts victim: preempt within
// one leaf queue, reclaim across queues.
func (e *env) action(by, victim int32) runtime.Action {
	if by >= 0 && e.leaf(&e.jobs[by]) == e.leaf(&e.jobs[victim]) {
		return runtime.ActionPreempt
	}
	return runtime.ActionReclaim
}

// minRuntime returns, in seconds, the min-runtime the resolver gives when job
// by evicts victim (by < 0: the victim's own preempt setting).
func (e *env) minRuntime(by, victim int32) int64 {
	vq := e.leaf(&e.jobs[victim])
	var r runtime.Resolution
	if by < 0 {
		r = e.resolver.Preempt(vq)
	} else {
		r = e.resolver.Resolve(e.action(by, victim), e.leaf(&e.jobs[by]), vq)
	}
	return int64((r.Duration + time.Second - 1) / time.Second)
}

// queueListing renders the queue tree for the report header.
func (e *env) queueListing() string {
	var b strings.Builder
	for c := Class(numClasses - 1); ; c-- {
		fmt.Fprintf(&b, "%s{", c.queueName())
		for t := range e.teams {
			if t > 0 {
				b.WriteString(",")
			}
			b.WriteString(teamName(c, t))
		}
		b.WriteString("}")
		if c == 0 {
			break
		}
		b.WriteString(" ")
	}
	return b.String()
}
