package expectedruntime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/runtime"
)

// defaultName is the default [Nominator.Name], KAI's plugin label value.
const defaultName = "expectedruntime"

// Log levels of the nominator's log lines. They mirror KAI-Scheduler's expected-runtime plugin's klog
// verbosities as negative slog levels (V(n) is level -n), so a handler at
// slog.LevelDebug (-4) shows the warnings only, and one at -6 shows
// everything.
const (
	// logLevelWarning (V(4)): skips caused by bad data or configuration:
	// invalid_duration, invalid_not_before, invalid_last_checkpoint,
	// clock_skew, invalid_action.
	logLevelWarning slog.Level = -4
	// logLevelEvent (V(5)): nominations and the other skips.
	logLevelEvent slog.Level = -5
	// logLevelDetail (V(6)): silent outcomes (not_configured, not_exceeded).
	logLevelDetail slog.Level = -6
)

// Nomination says that a running job exceeded its expected runtime and may
// be requeued if that lets a higher-priority job run. Its embedded [Victim]
// is what the requeue engine reads (requeue.Victim).
type Nomination struct {
	// Victim holds the job's data and its parsed annotations. Without a
	// valid requeue-delay (RequeueDelayErr says why one did not parse),
	// HasRequeueDelay is false and the engine's default delay applies. A
	// last-checkpoint-time after now is not believed: LastCheckpoint stays
	// zero.
	Victim
	// Index is the job's position in the slice given to
	// [Nominator.Nominate] (0 for [Nominator.Evaluate]).
	Index int
	// Nominator is the nominating plugin's name ([Nominator.Name]).
	Nominator string
	// Overrun is now - Start - Expected at the evaluation, >= 0.
	Overrun time.Duration
	// RequeueDelayErr is why the requeue-delay annotation did not parse.
	RequeueDelayErr error
}

// Outcome is the result of [Nominator.Evaluate] for one job.
type Outcome struct {
	// Decision: Allowed for a nomination (Reason "nominated"); otherwise the
	// first failed check and its Until.
	eligibility.Decision
	// Nomination is valid when Allowed.
	Nomination Nomination
	// Skip is valid when not Allowed: Source is the nominator's name, Err
	// the parse error behind invalid_duration, invalid_not_before and
	// invalid_last_checkpoint.
	Skip eligibility.Event
}

// Result is the output of [Nominator.Nominate]: the nominations and the
// non-silent skips, each in input order.
type Result struct {
	Nominations []Nomination
	Skips       []eligibility.Event
	// Wake is the earliest non-zero Until of all outcomes, silent ones
	// included: when to look again.
	Wake time.Time
	// Silent counts the silent outcomes (not_configured, not_exceeded).
	Silent int
}

// Nominator is KAI-Scheduler's expected-runtime nominator. The zero value
// is ready: name "expectedruntime", KAI's keys, no min-runtime check, no
// observer, no logging. Its methods do not modify it; it is safe for
// concurrent use when its Observer and Logger are.
type Nominator struct {
	// Name is the plugin name in outcomes, metrics and logs; "" means
	// "expectedruntime".
	Name string
	// Keys are the annotation keys; empty fields mean KAI's keys.
	Keys Keys
	// Resolver, when set, enables the min-runtime check (off in KAI's
	// plugin, which leaves it to the engine's victim filters).
	Resolver *runtime.Resolver
	// MinRuntimeAction selects the duration of that check, resolved as
	// Resolve(MinRuntimeAction, job.Queue, job.Queue).
	MinRuntimeAction runtime.Action
	// Observer receives every nomination and non-silent skip reported.
	Observer eligibility.Observer
	// Logger receives KAI's log lines, klog's V(n) as slog level -n: -4
	// for bad data (invalid_*, clock_skew), -5 for the other outcomes, -6
	// for the silent ones.
	Logger *slog.Logger
}

// Validate reports every problem at once: colliding annotation keys, a
// MinRuntimeAction neither preempt nor reclaim.
func (n *Nominator) Validate() error {
	var err error
	if !validAction(n.MinRuntimeAction) {
		err = fmt.Errorf("eligibility: nominator: MinRuntimeAction %v is neither preempt nor reclaim", n.MinRuntimeAction)
	}
	return errors.Join(n.Keys.validate(), err)
}

func (n *Nominator) name() string {
	if n.Name == "" {
		return defaultName
	}
	return n.Name
}

// Evaluate decides about one job at now, without reporting it. The checks,
// in order; the first that fails decides:
//
//  1. not running: ReasonNotRunning;
//  2. not preemptible: ReasonNotPreemptible;
//  3. no expected-runtime: ReasonNotConfigured (silent);
//  4. expected-runtime unparsable or <= 0: ReasonInvalidDuration;
//  5. zero Start: ReasonMissingStart;
//  6. now < Start: ReasonClockSkew, Until = Start;
//  7. now − Start < expected: ReasonNotExceeded (silent), Until = Start +
//     expected;
//  8. not-before unparsable: ReasonInvalidNotBefore (no Until);
//  9. now < notBefore: ReasonCooldown, Until = notBefore;
//  10. with a Resolver: an invalid MinRuntimeAction, ReasonInvalidAction;
//     now < Start + d, ReasonMinRuntimeProtected, Until = Start + d;
//  11. last-checkpoint unparsable: ReasonInvalidLastCheckpoint (no Until).
//
// Otherwise the job is nominated: Allowed, Reason "nominated". O(1): at
// most four map lookups and parses; no allocation but a bad value's error. A nil job is the zero Job.
func (n *Nominator) Evaluate(job *eligibility.Job, now time.Time) Outcome {
	if job == nil {
		job = &eligibility.Job{}
	}
	keys := n.Keys.withDefaults()
	var o Outcome
	n.evaluate(&keys, n.name(), job, 0, now, &o)
	return o
}

// evaluate decides about job and writes the result into o: o.Decision and
// either o.Nomination or o.Skip (the other is left as it was, so that
// Nominate can reuse one Outcome without clearing it).
func (n *Nominator) evaluate(keys *Keys, name string, job *eligibility.Job, index int, now time.Time, o *Outcome) {
	g := n.check(keys, job, now)
	if g.reason != reasonNominated {
		o.Decision = eligibility.Decision{Reason: g.reason, Until: g.until}
		o.Skip = eligibility.Event{Source: name, Job: job.ID, Decision: o.Decision, Err: g.err}
		return
	}
	o.Decision = eligibility.Decision{Allowed: true, Reason: reasonNominated}
	o.Nomination = Nomination{
		Victim: Victim{
			ID:             job.ID,
			Queue:          job.Queue,
			Priority:       job.Priority,
			Start:          job.Start,
			Expected:       g.expected,
			NotBefore:      g.notBefore,
			LastCheckpoint: g.lastCheckpoint,
			Resources:      job.Resources,
		},
		Index:     index,
		Nominator: name,
		Overrun:   now.Sub(job.Start) - g.expected,
	}
	if s, ok := job.Annotations[keys.RequeueDelay]; ok {
		o.Nomination.RequeueDelay, o.Nomination.RequeueDelayErr = parseDelay(keys.RequeueDelay, s)
		o.Nomination.HasRequeueDelay = o.Nomination.RequeueDelayErr == nil
	}
}

// verdict is what [Nominator.check] found: the first failed check (or
// reasonNominated) and what the nomination needs.
type verdict struct {
	reason         eligibility.Reason
	until          time.Time
	err            error
	expected       time.Duration
	notBefore      time.Time
	lastCheckpoint time.Time
}

// check runs the checks of [Nominator.Evaluate], in its order.
func (n *Nominator) check(keys *Keys, job *eligibility.Job, now time.Time) verdict {
	switch {
	case !job.Running:
		return verdict{reason: ReasonNotRunning}
	case !job.Preemptible:
		return verdict{reason: ReasonNotPreemptible}
	}
	s, ok := job.Annotations[keys.ExpectedRuntime]
	if !ok {
		return verdict{reason: ReasonNotConfigured}
	}
	expected, err := parseExpected(keys.ExpectedRuntime, s)
	start := job.Start
	switch {
	case err != nil:
		return verdict{reason: ReasonInvalidDuration, err: err}
	case start.IsZero():
		return verdict{reason: eligibility.ReasonMissingStart}
	case now.Before(start):
		return verdict{reason: eligibility.ReasonClockSkew, until: start}
	}
	// The sum saturates at clock.Last, where every job has run its
	// expected time.
	if until := clock.AddSaturating(start, expected); now.Before(until) {
		return verdict{reason: ReasonNotExceeded, until: until}
	}
	v := verdict{reason: reasonNominated, expected: expected}
	if s, ok := job.Annotations[keys.RequeueNotBefore]; ok {
		if v.notBefore, err = parseTimestamp(keys.RequeueNotBefore, s); err != nil {
			return verdict{reason: ReasonInvalidNotBefore, err: err}
		}
		if now.Before(v.notBefore) {
			return verdict{reason: eligibility.ReasonCooldown, until: v.notBefore}
		}
	}
	if n.Resolver != nil {
		if !validAction(n.MinRuntimeAction) {
			return verdict{reason: eligibility.ReasonInvalidAction}
		}
		res := n.Resolver.Resolve(n.MinRuntimeAction, job.Queue, job.Queue)
		if until := runtime.ProtectedUntil(start, res.Duration); !until.IsZero() && now.Before(until) {
			return verdict{reason: eligibility.ReasonMinRuntimeProtected, until: until}
		}
	}
	if s, ok := job.Annotations[keys.LastCheckpoint]; ok {
		cp, err := parseTimestamp(keys.LastCheckpoint, s)
		if err != nil {
			return verdict{reason: ReasonInvalidLastCheckpoint, err: err}
		}
		if !cp.After(now) {
			v.lastCheckpoint = cp
		}
	}
	return v
}

// Nominate evaluates jobs at now ([Nominator.Evaluate]) and returns the
// nominations and non-silent skips in input order, reporting each outcome
// ([Nominator.Report]). Cost: O(len(jobs)); it allocates the two output
// slices, sized once (and the errors of invalid annotations). A scheduler
// that must allocate nothing evaluates and reports jobs one at a time.
func (n *Nominator) Nominate(jobs []eligibility.Job, now time.Time) Result {
	var r Result
	// Size both outputs once from upper bounds that cost one map lookup per
	// job: only running, preemptible, opted-in jobs can be nominated, and
	// every other non-silent outcome is a not_running or not_preemptible
	// skip.
	keys := n.Keys.withDefaults()
	var optedIn, refused int
	for i := range jobs {
		switch j := &jobs[i]; {
		case !j.Running || !j.Preemptible:
			refused++
		default:
			if _, ok := j.Annotations[keys.ExpectedRuntime]; ok {
				optedIn++
			}
		}
	}
	if optedIn > 0 {
		r.Nominations = make([]Nomination, 0, optedIn)
	}
	if optedIn+refused > 0 {
		r.Skips = make([]eligibility.Event, 0, optedIn+refused)
	}
	name := n.name()
	var o Outcome // reused: evaluate overwrites the part it reports
	for i := range jobs {
		n.evaluate(&keys, name, &jobs[i], i, now, &o)
		switch {
		case o.Allowed:
			r.Nominations = append(r.Nominations, o.Nomination)
		case silent(o.Reason):
			r.Silent++
		default:
			r.Skips = append(r.Skips, o.Skip)
		}
		r.Wake = eligibility.Earliest(r.Wake, o.Until)
		n.Report(&o)
	}
	return r
}

// Report sends o, an outcome of Evaluate, to the Observer (unless silent)
// and the Logger, as Nominate does. No allocation but the logger's.
func (n *Nominator) Report(o *Outcome) {
	if o == nil {
		return
	}
	if n.Observer != nil {
		switch {
		case o.Allowed:
			n.Observer.Observe(eligibility.Event{Source: o.Nomination.Nominator, Job: o.Nomination.ID, Decision: o.Decision})
		case !silent(o.Reason):
			n.Observer.Observe(o.Skip)
		}
	}
	if n.Logger != nil {
		n.log(o)
	}
}

// log writes KAI's line for o, if the logger enables its level.
func (n *Nominator) log(o *Outcome) {
	ctx := context.Background()
	if o.Allowed {
		if n.Logger.Enabled(ctx, logLevelEvent) {
			n.Logger.LogAttrs(ctx, logLevelEvent,
				"Requeue candidate nominated: job="+o.Nomination.ID+", plugin="+o.Nomination.Nominator,
				slog.Duration("overrun", o.Nomination.Overrun))
		}
		return
	}
	s := &o.Skip
	level := logLevelEvent
	msg := "Requeue nomination skipped: job="
	switch s.Reason {
	case ReasonInvalidDuration, ReasonInvalidNotBefore, ReasonInvalidLastCheckpoint, eligibility.ReasonClockSkew, eligibility.ReasonInvalidAction:
		level = logLevelWarning
	case ReasonNotConfigured, ReasonNotExceeded:
		level = logLevelDetail
		msg = "Requeue nomination not considered: job="
	}
	if !n.Logger.Enabled(ctx, level) {
		return
	}
	msg += s.Job + ", reason=" + s.Reason.String()
	if s.Err != nil {
		msg += ", error=" + s.Err.Error()
	}
	if s.Until.IsZero() {
		n.Logger.LogAttrs(ctx, level, msg, slog.String("plugin", s.Source))
		return
	}
	n.Logger.LogAttrs(ctx, level, msg, slog.String("plugin", s.Source), slog.Time("until", s.Until))
}

// validAction reports whether a is runtime.ActionPreempt or
// runtime.ActionReclaim, the two actions a min-runtime applies to.
func validAction(a runtime.Action) bool {
	return a == runtime.ActionPreempt || a == runtime.ActionReclaim
}

// The nominator's own reasons; the others are eligibility's.
const (
	// reasonNominated: exceeded its expected runtime, passed every check.
	reasonNominated eligibility.Reason = "nominated"
	// ReasonNotRunning: no active allocated task.
	ReasonNotRunning eligibility.Reason = "not_running"
	// ReasonNotPreemptible: the job is not marked preemptible.
	ReasonNotPreemptible eligibility.Reason = "not_preemptible"
	// ReasonNotConfigured (silent): no expected-runtime annotation.
	ReasonNotConfigured eligibility.Reason = "not_configured"
	// ReasonInvalidDuration: expected-runtime unparsable or not positive.
	ReasonInvalidDuration eligibility.Reason = "invalid_duration"
	// ReasonNotExceeded (silent): now − start < expected.
	ReasonNotExceeded eligibility.Reason = "not_exceeded"
	// ReasonInvalidNotBefore: requeue-not-before unparsable; a cooldown
	// that only a rewrite lifts.
	ReasonInvalidNotBefore eligibility.Reason = "invalid_not_before"
	// ReasonInvalidLastCheckpoint: last-checkpoint-time unparsable.
	ReasonInvalidLastCheckpoint eligibility.Reason = "invalid_last_checkpoint"
)

// silent reports whether r is a silent outcome's reason.
func silent(r eligibility.Reason) bool { return r == ReasonNotConfigured || r == ReasonNotExceeded }
