package sim

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// Env is what every policy of one run shares, read-only: the queue tree, the
// min-runtime resolver and the policy settings. It is safe for concurrent
// use, so parallel simulations (sweeps, repeated runs) share one.
type Env struct {
	jobs     []trace.Job
	teams    int
	tree     *queuetree.Tree
	resolver *runtime.Resolver
	leafIDs  []queuetree.ID // by leaf index class*teams + team
	settings Settings
	// leafAnn holds, per leaf index, the expected-runtime annotation its
	// jobs carry (nil when the leaf did not opt in), and leafExpected the
	// duration it names.
	leafAnn      []map[string]string
	leafExpected []time.Duration
}

// Settings are the policy parameters of a run; Report.Settings prints them.
type Settings struct {
	// MinRuntime: queue -> min-runtime for both preempt and reclaim; the
	// defaults merged with -min-runtime, in queue-tree order.
	MinRuntime []QueueDuration
	// PreemptMinRuntime: queue -> the preempt min-runtime alone (an
	// eviction within one team queue), overriding MinRuntime's for that
	// queue; -preempt-min-runtime merged into its defaults likewise.
	PreemptMinRuntime []QueueDuration
	// Method is how reclaims resolve (runtime.MethodLCA or MethodQueue).
	Method runtime.Method
	// Expected: queue -> expected runtime (requeue opt-in), merged likewise.
	Expected []QueueDuration
	// RequeueDelay is the cooldown after a requeue.
	RequeueDelay time.Duration
	// RequeueEqual lets pending jobs of equal priority contend for an
	// over-running job's resources (requeue.EngineConfig.CanContend).
	RequeueEqual bool
	// NoNewer turns the time-based policy's "newer" rule off by giving the
	// library no preemptor timestamp (eligibility.PreemptionRequest: the zero
	// time counts no candidate as newer); only minAdmit expiry remains.
	NoNewer bool
	// MinAdmit is the time-based policy's minAdmitDuration.
	MinAdmit time.Duration
	// ReserveAfter is how long a job must have waited before the reserve
	// policy holds nodes for it.
	ReserveAfter time.Duration
	// Reservations bounds how many jobs hold reservations at a time.
	Reservations int
	// ThrashWindow is the fixed reference of the thrash metric: evictions
	// of runs shorter than this, for every policy.
	ThrashWindow time.Duration
}

// QueueDuration is one queue=duration setting.
type QueueDuration struct {
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

// buildTree returns the queue tree: one top-level queue per class, teams
// under each.
func buildTree(teams int) (*queuetree.Tree, error) {
	var qs []queuetree.Queue
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		qs = append(qs, queuetree.Queue{Name: c.QueueName()})
		for t := range teams {
			qs = append(qs, queuetree.Queue{Name: TeamName(c, t), Parent: c.QueueName()})
		}
	}
	return queuetree.New(qs)
}

// NewEnv builds the queue tree, the resolver and the per-leaf expected
// runtimes. Every problem with the settings is reported at once, with the
// library's own errors where it has one.
func NewEnv(jobs []trace.Job, teams int, set Settings) (*Env, error) {
	e := &Env{jobs: jobs, teams: teams, settings: set}
	tree, err := buildTree(teams)
	if err != nil {
		return nil, err
	}
	e.tree = tree
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		for t := range teams {
			id, _ := tree.Lookup(TeamName(c, t))
			e.leafIDs = append(e.leafIDs, id)
		}
	}
	var errs []error
	cfg := runtime.Config{Method: set.Method, Queues: minRuntimeSettings(set)}
	if e.resolver, err = runtime.NewResolver(tree, cfg); err != nil {
		errs = append(errs, fmt.Errorf("simulate: -min-runtime: %w", err))
	}
	// Expected runtime per leaf: the nearest setting on the leaf's path up,
	// as the annotation value the nominator will parse.
	set2 := map[queuetree.ID]time.Duration{}
	for _, q := range set.Expected {
		id, ok := tree.Lookup(q.Queue)
		if !ok {
			errs = append(errs, fmt.Errorf("simulate: -expected-runtime: unknown queue %q (have %s)", q.Queue, e.queueNames()))
			continue
		}
		// The nominator rejects a value it cannot use (0s, say) as
		// invalid_duration on every job: refuse it here, with its error.
		ann := map[string]string{eligibility.AnnotationExpectedRuntime: runtime.FormatDuration(q.D)}
		if pa := (eligibility.AnnotationKeys{}).Parse(ann); pa.ExpectedErr != nil {
			errs = append(errs, fmt.Errorf("simulate: -expected-runtime %s: %w", q.Queue, pa.ExpectedErr))
			continue
		}
		set2[id] = q.D
	}
	e.leafAnn = make([]map[string]string, len(e.leafIDs))
	e.leafExpected = make([]time.Duration, len(e.leafIDs))
	for i, leaf := range e.leafIDs {
		for q := range tree.Ancestors(leaf) {
			if d, ok := set2[q]; ok {
				e.leafAnn[i] = map[string]string{eligibility.AnnotationExpectedRuntime: runtime.FormatDuration(d)}
				e.leafExpected[i] = d
				break
			}
		}
	}
	return e, errors.Join(errs...)
}

// minRuntimeSettings turns the min-runtime settings into the resolver's
// per-queue settings: -min-runtime sets a queue's preempt and reclaim
// min-runtimes, -preempt-min-runtime its preempt one (a queue named only
// there inherits its reclaim min-runtime). Queues keep their first
// appearance's order.
func minRuntimeSettings(set Settings) []runtime.QueueSetting {
	var out []runtime.QueueSetting
	at := map[string]int{}
	entry := func(q string) *runtime.QueueSetting {
		i, ok := at[q]
		if !ok {
			i = len(out)
			at[q] = i
			out = append(out, runtime.QueueSetting{Queue: q})
		}
		return &out[i]
	}
	for _, q := range set.MinRuntime {
		e := entry(q.Queue)
		e.Preempt, e.Reclaim = runtime.Explicit(q.D), runtime.Explicit(q.D)
	}
	for _, q := range set.PreemptMinRuntime {
		entry(q.Queue).Preempt = runtime.Explicit(q.D)
	}
	return out
}

// queueNames lists the tree's queues for error messages.
func (e *Env) queueNames() string {
	var names []string
	for c := trace.Class(trace.NumClasses - 1); ; c-- {
		names = append(names, c.QueueName())
		for t := range e.teams {
			names = append(names, TeamName(c, t))
		}
		if c == 0 {
			break
		}
	}
	return strings.Join(names, ",")
}

// leafIndex returns the dense index of j's team queue: class × teams + team.
func (e *Env) leafIndex(j *trace.Job) int32 { return int32(int(j.Class)*e.teams + j.Team) }

// leaf returns j's team queue in the tree.
func (e *Env) leaf(j *trace.Job) queuetree.ID { return e.leafIDs[e.leafIndex(j)] }

// leafName returns the name of leaf index i.
func (e *Env) leafName(i int) string { return TeamName(trace.Class(i/e.teams), i%e.teams) }

// TeamName returns the name of team queue t of class c, e.g. "ls-a".
func TeamName(c trace.Class, t int) string {
	return fmt.Sprintf("%s-%s", c.QueueName(), teamSuffix(t))
}

// teamSuffix names teams a, b, ..., z, t26, t27, ...
func teamSuffix(t int) string {
	if t < 26 {
		return string(rune('a' + t))
	}
	return fmt.Sprintf("t%d", t)
}

// sameQueue reports whether jobs a and b are in one team queue.
func (e *Env) sameQueue(a, b int32) bool {
	return e.leafIndex(&e.jobs[a]) == e.leafIndex(&e.jobs[b])
}

// action is the kind of eviction when job by evicts victim: preempt within
// one leaf queue, reclaim across queues (KAI-Scheduler's terms).
func (e *Env) action(by, victim int32) runtime.Action {
	if by >= 0 && e.leafIndex(&e.jobs[by]) == e.leafIndex(&e.jobs[victim]) {
		return runtime.ActionPreempt
	}
	return runtime.ActionReclaim
}

// QueueListing renders the queue tree for the report header.
func (e *Env) QueueListing() string {
	var b strings.Builder
	for c := trace.Class(trace.NumClasses - 1); ; c-- {
		fmt.Fprintf(&b, "%s{", c.QueueName())
		for t := range e.teams {
			if t > 0 {
				b.WriteString(",")
			}
			b.WriteString(TeamName(c, t))
		}
		b.WriteString("}")
		if c == 0 {
			break
		}
		b.WriteString(" ")
	}
	return b.String()
}
