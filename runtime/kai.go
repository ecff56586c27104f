package runtime

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Names of the string settings KAI-Scheduler's min-runtime plugin reads
// (docs/plugins/minruntime.md): the plugin arguments and the Queue spec
// fields, as ParseConfig's errors name them.
const (
	argDefaultPreempt = "defaultPreemptMinRuntime"
	argDefaultReclaim = "defaultReclaimMinRuntime"
	argMethod         = "reclaimResolveMethod"
	fieldPreempt      = "preemptMinRuntime"
	fieldReclaim      = "reclaimMinRuntime"
)

// QueueFields is one queue's min-runtime fields in the string form of a
// KAI-Scheduler Queue spec. An empty string means the field is unset.
type QueueFields struct {
	Name              string // the queue's name, as in the tree
	PreemptMinRuntime string // e.g. "20s"; "" = unset (inherit)
	ReclaimMinRuntime string // e.g. "30s"; "" = unset (inherit)
}

// ParseConfig builds a [Config] from KAI-Scheduler's string forms: the
// min-runtime plugin arguments "defaultPreemptMinRuntime",
// "defaultReclaimMinRuntime" and "reclaimResolveMethod" ("lca" or "queue";
// a missing or empty one keeps 0, 0, "lca") and each queue's
// preemptMinRuntime and reclaimMinRuntime ([QueueFields]), all in
// [ParseDuration]'s grammar.
//
// It reports every problem at once, joined, each naming the argument or
// the queue and field: an unknown argument key, an unparsable or negative
// duration, an unknown method (where KAI-Scheduler's plugin falls back to
// lca), a queue with an empty name or listed twice. It returns the Config
// built from what parsed. Queues missing from the tree are
// [NewResolver]'s to report: join the two errors to report all at once.
// O(a log a + q) for a arguments and q queues.
func ParseConfig(pluginArgs map[string]string, queues []QueueFields) (Config, error) {
	var c Config
	errs := c.parsePluginArgs(pluginArgs, nil)
	errs = c.parseQueues(queues, errs)
	return c, errors.Join(errs...)
}

// parsePluginArgs sets c's defaults and method from KAI's plugin arguments,
// in key order, and appends a message for each bad or unknown one to errs.
func (c *Config) parsePluginArgs(pluginArgs map[string]string, errs []error) []error {
	keys := slices.Sorted(maps.Keys(pluginArgs))
	for _, k := range keys {
		v := pluginArgs[k]
		switch k {
		case argDefaultPreempt, argDefaultReclaim:
			if v == "" {
				continue
			}
			d, err := parseDuration(v)
			if err != nil {
				errs = append(errs, keyErrorf(k, "runtime: plugin argument %s: invalid duration %q: %w", k, v, err))
				continue
			}
			if k == argDefaultPreempt {
				c.DefaultPreempt = d
			} else {
				c.DefaultReclaim = d
			}
		case argMethod:
			if v == "" {
				continue
			}
			m, err := parseMethod(v)
			if err != nil {
				errs = append(errs, keyErrorf(k, "runtime: plugin argument %s: unknown method %q (want \"lca\" or \"queue\")", k, v))
				continue
			}
			c.Method = m
		default:
			errs = append(errs, keyErrorf(k, "runtime: unknown plugin argument %q (want %s, %s or %s)",
				k, argDefaultPreempt, argDefaultReclaim, argMethod))
		}
	}
	return errs
}

// parseQueues appends to c.Queues a setting for each queue that sets a
// min-runtime, and to errs a message for each bad entry (empty name,
// duplicate, bad duration).
func (c *Config) parseQueues(queues []QueueFields, errs []error) []error {
	seen := make(map[string]int, len(queues))
	for i, q := range queues {
		if q.Name == "" {
			errs = append(errs, keyErrorf(fmt.Sprintf("[%d].name", i), "runtime: queue entry %d has an empty name", i))
			continue
		}
		if first, dup := seen[q.Name]; dup {
			errs = append(errs, keyErrorf(fmt.Sprintf("[%d].name", i), "runtime: queue %q listed twice (entries %d and %d); the first is used", q.Name, first, i))
			continue
		}
		seen[q.Name] = i
		s := QueueSetting{Queue: q.Name}
		s.Preempt, errs = parseQueueField(i, q.Name, fieldPreempt, q.PreemptMinRuntime, errs)
		s.Reclaim, errs = parseQueueField(i, q.Name, fieldReclaim, q.ReclaimMinRuntime, errs)
		if s.Preempt != nil || s.Reclaim != nil {
			c.Queues = append(c.Queues, s)
		}
	}
	return errs
}

// parseQueueField parses one queue field: nil for "" (unset) and for an
// invalid value, whose error is appended to errs, keyed by the field and,
// unless i < 0, the queue's entry index i.
func parseQueueField(i int, queue, field, v string, errs []error) (*time.Duration, []error) {
	if v == "" {
		return nil, errs
	}
	d, err := parseDuration(v)
	if err != nil {
		key := field
		if i >= 0 {
			key = fmt.Sprintf("[%d].%s", i, field)
		}
		return nil, append(errs, keyErrorf(key, "runtime: queue %q: %s: invalid duration %q: %w", queue, field, v, err))
	}
	return &d, errs
}
