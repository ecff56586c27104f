package eligibility

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
)

// Observer receives the [Nominator]'s outcomes as they happen, in input
// order: every nomination and every non-silent skip (silent outcomes are
// never reported). The embedder maps them to its metrics; [Counter] is a
// ready in-memory implementation.
//
// Contract: methods are called synchronously from Nominate/AppendTo, on the
// caller's goroutine; they must not call back into the Nominator and should
// be cheap (they run once per job). The values are copies the observer may
// keep.
type Observer interface {
	ObserveNomination(n Nomination)
	ObserveSkip(s Skip)
}

// The metric names of seed 000 (without the embedder's namespace prefix,
// such as "kai_scheduler_").
const (
	// MetricNominations counts nominations, labelled {plugin}.
	MetricNominations = "requeue_nominations_total"
	// MetricSkipped counts skips, labelled {plugin, reason}.
	MetricSkipped = "requeue_nomination_skipped_total"
)

// Counter is an in-memory [Observer] counting nominations per plugin and
// skips per plugin and reason, keyed exactly like seed 000's metrics
// ([MetricNominations]{plugin}, [MetricSkipped]{plugin,reason}). The zero
// value is ready; a Counter is safe for concurrent use. After a plugin's
// first event, counting allocates nothing.
type Counter struct {
	mu      sync.Mutex
	noms    map[string]uint64
	skipped map[string]*[numReasons]uint64
}

var _ Observer = (*Counter)(nil)

// ObserveNomination counts one nomination.
func (c *Counter) ObserveNomination(n Nomination) {
	c.mu.Lock()
	if c.noms == nil {
		c.noms = make(map[string]uint64)
	}
	c.noms[n.Nominator]++
	c.mu.Unlock()
}

// ObserveSkip counts one skip.
func (c *Counter) ObserveSkip(s Skip) {
	if !s.Reason.Valid() {
		return
	}
	c.mu.Lock()
	if c.skipped == nil {
		c.skipped = make(map[string]*[numReasons]uint64)
	}
	p := c.skipped[s.Nominator]
	if p == nil {
		p = new([numReasons]uint64)
		c.skipped[s.Nominator] = p
	}
	p[s.Reason]++
	c.mu.Unlock()
}

// Nominations returns the count of requeue_nominations_total{plugin}.
func (c *Counter) Nominations(plugin string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.noms[plugin]
}

// Skipped returns the count of requeue_nomination_skipped_total{plugin,reason}.
func (c *Counter) Skipped(plugin string, reason Reason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.skipped[plugin]; p != nil && reason.Valid() {
		return p[reason]
	}
	return 0
}

// Sample is one non-zero counter value of a [Counter].
type Sample struct {
	Name   string // MetricNominations or MetricSkipped
	Plugin string
	Reason string // "" for MetricNominations
	Value  uint64
}

// String formats s in the Prometheus text format, for example
// requeue_nomination_skipped_total{plugin="expectedruntime",reason="cooldown"} 3.
func (s Sample) String() string {
	b := append([]byte(s.Name), `{plugin=`...)
	b = strconv.AppendQuote(b, s.Plugin)
	if s.Reason != "" {
		b = append(b, `,reason=`...)
		b = strconv.AppendQuote(b, s.Reason)
	}
	b = append(b, "} "...)
	b = strconv.AppendUint(b, s.Value, 10)
	return string(b)
}

// Samples returns every non-zero counter, sorted by name, plugin and reason.
func (c *Counter) Samples() []Sample {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Sample
	for p, v := range c.noms {
		if v != 0 {
			out = append(out, Sample{Name: MetricNominations, Plugin: p, Value: v})
		}
	}
	for p, arr := range c.skipped {
		for r, v := range arr {
			if v != 0 {
				out = append(out, Sample{Name: MetricSkipped, Plugin: p, Reason: Reason(r).String(), Value: v})
			}
		}
	}
	slices.SortFunc(out, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Plugin, b.Plugin), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
