package eligibility

import (
	"cmp"
	"slices"
	"strconv"
	"sync"
)

// Event is one decision a component made, as an [Observer] sees it: who
// decided (Source), about which job, and the [Decision]. It is tenure's one
// event shape: the expected-runtime nominator reports its nominations and
// skips as Events,
// and the requeue engine its outcomes and rolled-back attempts.
type Event struct {
	// Source names the deciding component, a stable label: the nominator's
	// plugin name (its Name, "expectedruntime" by default) or the
	// requeue engine's name ("requeue" by default).
	Source string
	// Job is the ID of the job decided about.
	Job string
	// Other is the other job involved, when there is one: the contender of
	// a rolled-back requeue attempt. Empty otherwise.
	Other string
	// Decision is the decision: Allowed, Reason (the metric label) and
	// Until.
	Decision
	// Err is the bad data behind the decision, when there is some (the
	// parse error behind invalid_duration, a model's error). Nil otherwise.
	Err error
}

// Observer receives decisions as they are made. The embedder maps them to
// its metrics and logs; [Counter] is a ready in-memory implementation, and
// [ObserverFunc] adapts a function.
//
// Contract: Observe is called synchronously, on the goroutine of the call
// that made the decision, in the order of the decisions; it must not call
// back into the component that called it and should be cheap (it runs once
// per decision). The Event is a copy the observer may keep.
type Observer interface {
	Observe(e Event)
}

// ObserverFunc adapts a function to [Observer].
type ObserverFunc func(e Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e Event) { f(e) }

// Counter is an in-memory [Observer] that counts events per source and
// reason, for any component: give each component its own source name (the
// nominator's default is "expectedruntime", the requeue engine's "requeue")
// and one Counter serves them all.
//
// The zero value is ready; a Counter is safe for concurrent use. An event
// whose Reason is not [Reason.Valid] is counted under "invalid", so the
// counts always add up to the events seen and a garbage reason never becomes
// a label. After a (source, reason) pair's first event, counting allocates
// nothing.
type Counter struct {
	mu     sync.Mutex
	counts map[counterKey]uint64
}

type counterKey struct {
	source string
	reason Reason
}

var _ Observer = (*Counter)(nil)

// reasonInvalid is the label under which a [Counter] counts events whose
// Reason is not [Reason.Valid].
const reasonInvalid Reason = "invalid"

// Observe counts one event.
func (c *Counter) Observe(e Event) {
	if !e.Reason.Valid() {
		e.Reason = reasonInvalid
	}
	c.mu.Lock()
	if c.counts == nil {
		c.counts = make(map[counterKey]uint64)
	}
	c.counts[counterKey{e.Source, e.Reason}]++
	c.mu.Unlock()
}

// Count returns how many events of source with reason were observed.
func (c *Counter) Count(source string, reason Reason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[counterKey{source, reason}]
}

// Sample is one non-zero count of a [Counter]: the value of
// tenure_decisions_total{source, reason}.
type Sample struct {
	Source string
	Reason Reason
	Value  uint64
}

// String formats s in the Prometheus text exposition format, for example
// tenure_decisions_total{source="expectedruntime",reason="cooldown"} 3. Label
// values are escaped as that format requires (backslash, double quote and
// line feed); any other byte is written as is.
func (s Sample) String() string {
	b := append([]byte("tenure_decisions_total"), `{source="`...)
	b = appendLabelValue(b, s.Source)
	b = append(b, `",reason="`...)
	b = appendLabelValue(b, string(s.Reason))
	b = append(b, `"} `...)
	b = strconv.AppendUint(b, s.Value, 10)
	return string(b)
}

// appendLabelValue appends v escaped as a Prometheus label value.
func appendLabelValue(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			b = append(b, `\\`...)
		case '"':
			b = append(b, `\"`...)
		case '\n':
			b = append(b, `\n`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// Samples returns every non-zero count, sorted by source and reason.
func (c *Counter) Samples() []Sample {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Sample, 0, len(c.counts))
	for k, v := range c.counts {
		out = append(out, Sample{Source: k.source, Reason: k.reason, Value: v})
	}
	slices.SortFunc(out, func(a, b Sample) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
