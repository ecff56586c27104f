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
//     entry, and the queue then inherits both; for a queue without an
//     entry, or one t does not have, it does nothing.
//
// The defaults and the method are prev's. The result answers every query
// as [NewResolver](t, c) does for that Config c, and the error is its
// error: an edit that sets a negative duration, or sets a duration for an
// empty name or a name t does not have, is refused (with a nil resolver),
// as is a nil or zero prev (which holds no settings to change). A
// scheduler that must apply every event uses [ApplyResolverTolerant].
//
// Cost, when prev was built for t itself or for the tree t was patched
// from by one [queuetree.Apply] call that added one queue or removed or
// moved one without children ([queuetree.Tree.ShiftsFrom]), and every
// entry of its Config named a queue once (its only problems, if any, were
// negative durations): one name lookup per edit, copies of prev's arrays
// (O(n + q) for n queues and q settings, pointer-free but for the q table
// entries), and a pass over the subtree of each edited queue; no other
// name is looked up. Edits that change nothing (none at all, or each
// setting what its queue has) for prev's own tree return prev itself.
// Otherwise (another tree, an edit for a queue t lacks, or many settings
// removed since the last rebuild), [NewResolverTolerant]'s cost for c,
// plus O(q + e log e) to write c out.
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
// explicit 0; a setting for an empty or unknown name is ignored) and
// reported; a setting for a queue t does not have is kept in c only until
// the next change, which leaves it out with the other settings of queues
// t lacks. The problems of prev's own settings are reported again while
// they are still in c, as [UpdateResolverTolerant] does. A nil or zero
// prev yields a nil resolver and one error. Cost as ApplyResolver; a
// KAI-Scheduler queue with a negative duration keeps the patch's cost.
func ApplyResolverTolerant(prev *Resolver, t *queuetree.Tree, edits ...QueueSetting) (*Resolver, []error) {
	if !prev.built() {
		return nil, []error{errors.New("runtime: ApplyResolver needs a resolver to change, got a nil or zero Resolver; build the first with NewResolver")}
	}
	if t == prev.tree && (prev.clean || prev.negOnly) && prev.unchangedBy(edits) {
		return prev, slices.Clone(prev.repairedErrs)
	}
	if r := prev.patch(t, edits); r != nil {
		return r, slices.Clone(r.repairedErrs)
	}
	return NewResolverTolerant(t, prev.editedConfig(t, edits))
}

// unchangedBy reports whether each edit leaves r's settings as they are:
// it sets what its queue already has, or removes the setting of a queue
// that has none (or that r's tree lacks). One lookup per edit.
func (r *Resolver) unchangedBy(edits []QueueSetting) bool {
	for i := range edits {
		e := &edits[i]
		id, ok := r.tree.Lookup(e.Queue)
		k := int32(0)
		if ok {
			k = r.which[id]
		}
		if e.Preempt == nil && e.Reclaim == nil {
			if k != 0 {
				return false
			}
		} else if k == 0 || r.owns[k] != own(e) {
			return false
		}
	}
	return true
}

// maxDead is how many removed settings a resolver's tables may hold, past
// the number of live ones, before ApplyResolver rebuilds them compactly.
const maxDead = 32

// patch is ApplyResolver's patch: the resolver for t of r's settings
// changed by edits, when every entry of r's Config named a queue once
// (r clean or negOnly), t is r's tree or one one-leaf patch of it, every
// edit that sets a duration names a queue of t, and the tables hold few
// removed settings; nil otherwise. An edited queue's own setting is
// replaced in place (or appended, or unlinked when the edit removes it),
// then the subtrees of the edited queues inherit again, in preorder.
func (r *Resolver) patch(t *queuetree.Tree, edits []QueueSetting) *Resolver {
	if !(r.clean || r.negOnly) || t.Len() == 0 {
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
		id, ok := t.Lookup(edits[i].Queue)
		if !ok && (edits[i].Preempt != nil || edits[i].Reclaim != nil) {
			return nil // NewResolverTolerant reports it
		}
		ids[i] = id // None for a removal that does nothing
	}
	n, _ := r.follow(t, shifts)
	n.owns = slices.Clone(r.owns)
	for i := range edits {
		if ids[i] != queuetree.None {
			n.replaceOwn(ids[i], &edits[i])
		}
	}
	slices.Sort(ids)
	end := queuetree.None
	for _, id := range ids {
		if id >= end { // not inside a subtree already done
			end = id + queuetree.ID(t.SubtreeSize(id))
			n.inheritRange(id, end)
		}
	}
	n.recordProblems()
	return n
}

// replaceOwn makes s queue id's own setting in a resolver whose owns and
// tables are its own copies: in place when the queue has one, appended
// (owns and each table one entry longer) when not; a setting with neither
// field unlinks the queue's entry instead. The inherited indexes are left
// to the caller.
func (r *Resolver) replaceOwn(id queuetree.ID, s *QueueSetting) {
	k := r.which[id]
	if k != 0 {
		r.owners-- // unlinked, or linked again by setOwn
		if r.owns[k].negative() {
			r.negatives--
		}
	}
	if s.Preempt == nil && s.Reclaim == nil {
		r.which[id] = 0
		return
	}
	if k == 0 {
		k = int32(len(r.owns))
		r.owns = append(r.owns, ownSetting{})
		r.preTab = append(r.preTab, Resolution{})
		r.recTab = [2][]Resolution{append(r.recTab[0], Resolution{}), append(r.recTab[1], Resolution{})}
	} else {
		r.preTab[k], r.recTab[0][k], r.recTab[1][k] = Resolution{}, Resolution{}, Resolution{}
	}
	r.setOwn(id, k, s)
}

// recordProblems sets what a patched resolver records of its problems:
// none when no linked setting is negative; otherwise its settings as
// given, in the order of their k (which is its Config's order), and one
// problem per negative duration, as NewResolverTolerant reports them.
func (r *Resolver) recordProblems() {
	r.clean, r.negOnly, r.repairedQueues, r.repairedErrs = true, false, nil, nil
	if r.negatives == 0 {
		return
	}
	given := r.linkedSettings()
	var errs []error
	for _, e := range given {
		errs = e.own.negativeErrs(e.queue, errs)
	}
	if len(errs) > 0 {
		r.clean, r.negOnly, r.repairedQueues, r.repairedErrs = false, true, given, errs
	}
}

// linkedSettings returns the own settings linked to r's queues, in the
// order of their k, with their queues' names.
func (r *Resolver) linkedSettings() []ownNamed {
	byK := make([]queuetree.ID, len(r.owns))
	for id, k := range r.which {
		if k != 0 {
			byK[k] = queuetree.ID(id)
		}
	}
	out := make([]ownNamed, 0, r.owners)
	for k, id := range byK {
		if id != queuetree.None {
			out = append(out, ownNamed{r.tree.Name(id), r.owns[k]})
		}
	}
	return out
}
