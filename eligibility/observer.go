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
// first event, counting allocates nothing; consecutive events of the same
// plugin skip the map lookup.
type Counter struct {
	mu       sync.Mutex
	plugins  map[string]*pluginCounts
	lastName string        // plugin of the previous event
	last     *pluginCounts // its counts
}

// pluginCounts are one plugin's counters.
type pluginCounts struct {
	nominations uint64
	skipped     [numReasons]uint64
}

var _ Observer = (*Counter)(nil)

// counts returns plugin's counters, creating them. c.mu must be held.
func (c *Counter) counts(plugin string) *pluginCounts {
	if c.last != nil && c.lastName == plugin {
		return c.last
	}
	p := c.plugins[plugin]
	if p == nil {
		if c.plugins == nil {
			c.plugins = make(map[string]*pluginCounts)
		}
		p = new(pluginCounts)
		c.plugins[plugin] = p
	}
	c.lastName, c.last = plugin, p
	return p
}

// ObserveNomination counts one nomination.
func (c *Counter) ObserveNomination(n Nomination) {
	c.mu.Lock()
	c.counts(n.Nominator).nominations++
	c.mu.Unlock()
}

// ObserveSkip counts one skip (an invalid Reason is ignored).
func (c *Counter) ObserveSkip(s Skip) {
	if !s.Reason.Valid() {
		return
	}
	c.mu.Lock()
	c.counts(s.Nominator).skipped[s.Reason]++
	c.mu.Unlock()
}

// Nominations returns the count of requeue_nominations_total{plugin}.
func (c *Counter) Nominations(plugin string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.plugins[plugin]; p != nil {
		return p.nominations
	}
	return 0
}

// Skipped returns the count of requeue_nomination_skipped_total{plugin,reason}.
func (c *Counter) Skipped(plugin string, reason Reason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.plugins[plugin]; p != nil && reason.Valid() {
		return p.skipped[reason]
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
	for name, p := range c.plugins {
		if p.nominations != 0 {
			out = append(out, Sample{Name: MetricNominations, Plugin: name, Value: p.nominations})
		}
		for r, v := range p.skipped {
			if v != 0 {
				out = append(out, Sample{Name: MetricSkipped, Plugin: name, Reason: Reason(r).String(), Value: v})
			}
		}
	}
	slices.SortFunc(out, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Plugin, b.Plugin), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
