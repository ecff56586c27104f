package sim

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/policies"
	"github.com/tenurepolicy/tenure/examples/simulate/internal/trace"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// Env is what every policy of one run shares, read-only: the queue tree, the
// min-runtime resolver and the policy settings. It is safe for concurrent
// use, so parallel simulations (sweeps, repeated runs) share one.
type Env struct {
	jobs  []trace.Job
	teams int
	// tenureCfg is the configuration every policy of a run is built from
	// (policies.TenureConfig); tree is its queue tree.
	tenureCfg tenure.Config
	tree      *queuetree.Tree
	leafIDs   []queuetree.ID // by leaf index class*teams + team
	settings  Settings
	// leafAnn holds, per leaf index, the expected-runtime annotation its
	// jobs carry (nil when the leaf did not opt in), and leafExpected the
	// duration it names.
	leafAnn      []map[string]string
	leafExpected []time.Duration
}

// Settings are the policy parameters of a run (policies.Settings).
type Settings = policies.Settings

// QueueDuration is one queue=duration setting (policies.QueueDuration).
type QueueDuration = policies.QueueDuration

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

// NewEnv builds the run's tenure.Config, checks it by building a
// tenure.Policy from it, keeps the queue tree of its queue list, and derives the
// per-leaf expected runtimes. Every problem with the settings is reported
// at once, with the library's own errors where it has one.
func NewEnv(jobs []trace.Job, teams int, set Settings) (*Env, error) {
	e := &Env{jobs: jobs, teams: teams, settings: set, tenureCfg: policies.TenureConfig(teams, set)}
	var errs []error
	// tenure.Config carries min-runtimes as fields of the queues it lists,
	// so a setting for a queue outside the tree cannot be said there (it is
	// left out); a resolver built from the settings as given reports it,
	// in the library's words.
	tree, treeErr := buildTree(teams)
	if treeErr == nil {
		if _, err := runtime.NewResolver(tree, runtime.Config{Method: set.Method, Queues: minRuntimeSettings(set)}); err != nil {
			errs = append(errs, fmt.Errorf("simulate: -min-runtime: %w", err))
		}
	}
	if _, err := tenure.New(e.tenureCfg); err != nil {
		return nil, errors.Join(append(errs, settingErrors(err)...)...)
	}
	if treeErr != nil { // unreachable: New accepted the same queue list
		return nil, treeErr
	}
	e.tree = tree // the same queue list as the Policy's: the same IDs
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		for t := range teams {
			id, _ := e.tree.Lookup(trace.TeamName(c, t))
			e.leafIDs = append(e.leafIDs, id)
		}
	}
	errs = append(errs, e.expectedRuntimes()...)
	return e, errors.Join(errs...)
}

// expectedRuntimes sets each leaf's expected runtime: the nearest
// -expected-runtime setting on the leaf's path up, as the annotation value
// the nominator will parse.
func (e *Env) expectedRuntimes() []error {
	var errs []error
	set2 := map[queuetree.ID]time.Duration{}
	for _, q := range e.settings.Expected {
		id, ok := e.tree.Lookup(q.Queue)
		if !ok {
			errs = append(errs, fmt.Errorf("simulate: -expected-runtime: unknown queue %q (have %s)", q.Queue, e.queueNames()))
			continue
		}
		// The nominator rejects a value it cannot use (0s, say) as
		// invalid_duration on every job: refuse it here, with its error.
		probe := eligibility.Job{Running: true, Preemptible: true,
			Annotations: map[string]string{expectedruntime.AnnotationExpectedRuntime: runtime.FormatDuration(q.D)}}
		if o := (&expectedruntime.Nominator{}).Evaluate(&probe, time.Time{}); o.Reason == expectedruntime.ReasonInvalidDuration {
			errs = append(errs, fmt.Errorf("simulate: -expected-runtime %s: %w", q.Queue, o.Skip.Err))
			continue
		}
		set2[id] = q.D
	}
	e.leafAnn = make([]map[string]string, len(e.leafIDs))
	e.leafExpected = make([]time.Duration, len(e.leafIDs))
	for i, leaf := range e.leafIDs {
		for q := leaf; q != queuetree.None; q = e.tree.Parent(q) { // the leaf, then its ancestors
			if d, ok := set2[q]; ok {
				e.leafAnn[i] = map[string]string{expectedruntime.AnnotationExpectedRuntime: runtime.FormatDuration(d)}
				e.leafExpected[i] = d
				break
			}
		}
	}
	return errs
}

// buildTree returns the queue tree: one top-level queue per class, teams
// under each.
func buildTree(teams int) (*queuetree.Tree, error) {
	var qs []queuetree.Queue
	for c := trace.Class(0); c < trace.NumClasses; c++ {
		qs = append(qs, queuetree.Queue{Name: c.QueueName()})
		for t := range teams {
			qs = append(qs, queuetree.Queue{Name: trace.TeamName(c, t), Parent: c.QueueName()})
		}
	}
	return queuetree.New(qs)
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
		e.Preempt, e.Reclaim = explicit(q.D), explicit(q.D)
	}
	for _, q := range set.PreemptMinRuntime {
		entry(q.Queue).Preempt = explicit(q.D)
	}
	return out
}

// queueNames lists the tree's queues for error messages.
func (e *Env) queueNames() string {
	var names []string
	for c := trace.Class(trace.NumClasses - 1); ; c-- {
		names = append(names, c.QueueName())
		for t := range e.teams {
			names = append(names, trace.TeamName(c, t))
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
func (e *Env) leafName(i int) string { return trace.TeamName(trace.Class(i/e.teams), i%e.teams) }

// sameQueue reports whether jobs a and b are in one team queue.
func (e *Env) sameQueue(a, b int32) bool {
	return e.leafIndex(&e.jobs[a]) == e.leafIndex(&e.jobs[b])
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
			b.WriteString(trace.TeamName(c, t))
		}
		b.WriteString("}")
		if c == 0 {
			break
		}
		b.WriteString(" ")
	}
	return b.String()
}

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
