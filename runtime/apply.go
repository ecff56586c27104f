package runtime

import (
	"errors"
	"slices"

	"github.com/tenurepolicy/tenure/queuetree"
)

// ApplyResolver returns the resolver for t of prev's queue settings changed
// by edits, for a scheduler that learns of each queue change from a watch,
// as [queuetree.Apply] is for the tree: KAI-Scheduler's min-runtime
// settings are fields of its Queue objects (preemptMinRuntime,
// reclaimMinRuntime), so a watch event that changes a queue changes its
// setting too, and neither the tree nor the settings need be compared
// whole.
//
// The settings are prev's Config.Queues with these changes:
//
//   - the entries of queues t does not have are left out: a deleted
//     queue's setting goes with it;
//   - each edit, in order, replaces its queue's entry (the first of them;
//     any others are left out) or is appended when the queue has none;
//   - an edit that sets neither Preempt nor Reclaim removes the queue's
//     entry: the queue then inherits both.
//
// The defaults and the method are prev's. The result answers every query
// as [NewResolver](t, c) does for that Config c, and the error is its
// error: an edit with a negative duration, an empty name or a name t does
// not have is refused (with a nil resolver), as is a nil or zero prev
// (which holds no settings to change). A scheduler that must apply every
// event uses [ApplyResolverTolerant].
//
// Cost, when prev was built without problems for t itself or for the tree
// t was patched from by one [queuetree.Apply] call that added one queue or
// removed or moved one without children ([queuetree.Tree.ShiftsFrom]):
// one name lookup per edit, copies of prev's arrays (O(n + q) for n queues
// and q settings, pointer-free but for the q table entries), and a pass
// over the subtree of each edited queue; no other name is looked up.
// Otherwise (another tree, or many settings removed since the last
// rebuild), [NewResolverTolerant]'s cost for c, plus O(q) lookups to
// write c out.
func ApplyResolver(prev *Resolver, t *queuetree.Tree, edits ...QueueSetting) (*Resolver, error) {
	r, problems := ApplyResolverTolerant(prev, t, edits...)
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return r, nil
}

// ApplyResolverTolerant is [ApplyResolver] for a scheduler that must apply
// every event, as [queuetree.ApplyTolerant] is for the tree: it returns the
// resolver [NewResolverTolerant](t, c) builds for the Config c that
// ApplyResolver describes, and its problems (nil when there are none: the
// same resolver ApplyResolver returns). An edit with a problem is repaired
// as NewResolverTolerant repairs it (a negative duration counts as an
// explicit 0; an empty or unknown name is ignored) and reported; an
// edit for a queue t does not have is kept in c only until the next
// change, which leaves it out with the other settings of queues t lacks.
// The problems of prev's own settings are reported again while they are
// still in c, as [UpdateResolverTolerant] does. A nil or zero prev yields
// a nil resolver and one error. Cost as ApplyResolver.
func ApplyResolverTolerant(prev *Resolver, t *queuetree.Tree, edits ...QueueSetting) (*Resolver, []error) {
	if !prev.built() {
		return nil, []error{errors.New("runtime: ApplyResolver needs a resolver to change, got a nil or zero Resolver; build the first with NewResolver")}
	}
	if r := prev.applyClean(t, edits); r != nil {
		return r, nil
	}
	return NewResolverTolerant(t, prev.editedConfig(t, edits))
}

// maxDead is how many removed settings a resolver's tables may hold, past
// the number of live ones, before ApplyResolver rebuilds them compactly.
const maxDead = 32

// applyClean is ApplyResolver's patch: the resolver for t of r's settings
// changed by edits, when r was built without problems, t is r's tree or
// one one-leaf patch of it, every edit is valid for t and the tables hold
// few removed settings; nil otherwise. An edited queue's own setting is
// replaced in place (or appended, or unlinked when the edit removes it),
// then the subtrees of the edited queues inherit again, in preorder.
func (r *Resolver) applyClean(t *queuetree.Tree, edits []QueueSetting) *Resolver {
	if !r.clean || t.Len() == 0 {
		return nil
	}
	if dead := len(r.owns) - 1 - r.owners; dead > maxDead && dead > r.owners {
		return nil
	}
	var shifts []queuetree.Shift
	if t != r.tree {
		var ok bool
		if shifts, ok = t.ShiftsFrom(r.tree); !ok {
			return nil
		}
	}
	ids := make([]queuetree.ID, len(edits))
	for i := range edits {
		e := &edits[i]
		id, ok := t.Lookup(e.Queue)
		if !ok || (e.Preempt != nil && *e.Preempt < 0) || (e.Reclaim != nil && *e.Reclaim < 0) {
			return nil
		}
		ids[i] = id
	}
	n, _ := r.follow(t, shifts)
	n.owns = slices.Clone(r.owns)
	for i := range edits {
		n.replaceOwn(ids[i], &edits[i])
	}
	slices.Sort(ids)
	end := queuetree.None
	for _, id := range ids {
		if id >= end { // not inside a subtree already done
			end = id + queuetree.ID(t.SubtreeSize(id))
			n.inheritRange(id, end)
		}
	}
	return n
}

// replaceOwn makes s queue id's own setting in a resolver whose owns and
// tables are its own copies: in place when the queue has one, appended
// (owns and each table one entry longer) when not; a setting with neither
// field unlinks the queue's entry instead. The inherited indexes are left
// to the caller.
func (r *Resolver) replaceOwn(id queuetree.ID, s *QueueSetting) {
	k := r.which[id]
	o := own(s)
	if !o.hasPreempt && !o.hasReclaim {
		if k != 0 {
			r.which[id], r.owners = 0, r.owners-1
		}
		return
	}
	if k == 0 {
		k = int32(len(r.owns))
		r.owns = append(r.owns, ownSetting{})
		r.preTab = append(r.preTab, Resolution{})
		r.recTab = [2][]Resolution{append(r.recTab[0], Resolution{}), append(r.recTab[1], Resolution{})}
	} else {
		r.owners-- // setOwn counts it again
		r.preTab[k], r.recTab[0][k], r.recTab[1][k] = Resolution{}, Resolution{}, Resolution{}
	}
	r.setOwn(id, k, s)
}

// editedConfig writes out the Config that ApplyResolver describes: r's
// defaults, method and queue settings as given (in their order, a clean
// resolver's own settings by k), without the entries of queues t does not
// have, changed by edits.
func (r *Resolver) editedConfig(t *queuetree.Tree, edits []QueueSetting) Config {
	c := Config{DefaultPreempt: r.defaults[0], DefaultReclaim: r.defaults[1], Method: r.given}
	for _, s := range r.givenSettings() {
		if _, ok := t.Lookup(s.Queue); ok {
			c.Queues = append(c.Queues, s)
		}
	}
	for _, e := range edits {
		removes := e.Preempt == nil && e.Reclaim == nil
		at := slices.IndexFunc(c.Queues, func(s QueueSetting) bool { return s.Queue == e.Queue })
		switch {
		case at < 0 && !removes:
			c.Queues = append(c.Queues, e)
			continue
		case at < 0:
			continue
		case removes:
			c.Queues = slices.Delete(c.Queues, at, at+1)
		default:
			c.Queues[at] = e
			at++
		}
		c.Queues = append(c.Queues[:at], slices.DeleteFunc(c.Queues[at:], func(s QueueSetting) bool { return s.Queue == e.Queue })...)
	}
	return c
}

// givenSettings returns r's queue settings as given: the entries of a
// resolver built with problems, in their order; a clean resolver's own
// settings in the order of their k (each names its queue in r's tree).
func (r *Resolver) givenSettings() []QueueSetting {
	if !r.clean {
		out := make([]QueueSetting, len(r.repairedQueues))
		for i, e := range r.repairedQueues {
			out[i] = e.own.setting(e.queue)
		}
		return out
	}
	byK := make([]queuetree.ID, len(r.owns))
	for id, k := range r.which {
		if k != 0 {
			byK[k] = queuetree.ID(id)
		}
	}
	out := make([]QueueSetting, 0, r.owners)
	for k, id := range byK {
		if id != queuetree.None {
			out = append(out, r.owns[k].setting(r.tree.Name(id)))
		}
	}
	return out
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
