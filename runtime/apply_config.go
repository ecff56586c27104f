package runtime

import (
	"cmp"
	"slices"

	"github.com/tenurepolicy/tenure/queuetree"
)

// editedConfig writes out the Config that ApplyResolver describes: r's
// defaults, method and queue settings as given (a clean resolver's in the
// order of their k), without the entries of queues t does not have,
// changed by edits. O(q + e log e) for q settings and e edits, with two
// maps of names.
func (r *Resolver) editedConfig(t *queuetree.Tree, edits []QueueSetting) Config {
	c := Config{DefaultPreempt: r.defaults[0], DefaultReclaim: r.defaults[1], Method: r.given}
	given := r.repairedQueues
	if r.clean {
		given = r.linkedSettings()
	}
	final := editOutcomes(given, t, edits)
	for _, e := range given {
		if _, ok := t.Lookup(e.queue); !ok {
			continue
		}
		o := final[e.queue]
		switch {
		case o == nil:
			c.Queues = append(c.Queues, e.own.setting(e.queue))
		case o.present && o.appended == 0:
			c.Queues = append(c.Queues, o.s)
			o.present = false // its other entries are left out
		}
	}
	var added []*editOutcome
	for _, o := range final {
		if o.present && o.appended > 0 {
			added = append(added, o)
		}
	}
	slices.SortFunc(added, func(a, b *editOutcome) int { return cmp.Compare(a.appended, b.appended) })
	for _, o := range added {
		c.Queues = append(c.Queues, o.s)
	}
	return c
}

// editOutcome is what a queue's edits, applied in order, leave of its
// entry: the last edit's setting, or none.
type editOutcome struct {
	s       QueueSetting
	present bool // the queue has an entry after the edits
	// appended is 1 + the entry's rank among the appended ones (a new
	// entry, or one removed and set again goes after the kept ones, in
	// the order it was last appended); 0 for an entry kept in place.
	appended int
}

// editOutcomes applies edits to the names of the entries given (those of
// queues t lacks counting as absent) and returns each edited name's
// outcome.
func editOutcomes(given []ownNamed, t *queuetree.Tree, edits []QueueSetting) map[string]*editOutcome {
	listed := make(map[string]bool, len(given))
	for _, e := range given {
		listed[e.queue] = true
	}
	final := make(map[string]*editOutcome, len(edits))
	rank := 0
	for _, e := range edits {
		o := final[e.Queue]
		if o == nil {
			_, known := t.Lookup(e.Queue)
			o = &editOutcome{present: listed[e.Queue] && known}
			final[e.Queue] = o
		}
		sets := e.Preempt != nil || e.Reclaim != nil
		if sets && !o.present {
			rank++
			o.appended = rank
		}
		o.s, o.present = e, sets
	}
	return final
}

// setting returns o as the entry of Config.Queues for queue.
func (o ownSetting) setting(queue string) QueueSetting {
	s := QueueSetting{Queue: queue}
	if o.hasPreempt {
		s.Preempt = Explicit(o.preempt)
	}
	if o.hasReclaim {
		s.Reclaim = Explicit(o.reclaim)
	}
	return s
}
