package queuetree

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// listModel is the naive oracle of Apply: the queue list as a map from
// name to parent name, edited one Edit at a time.
type listModel map[string]string

// apply replays e and reports whether it is valid (a non-empty name; a
// removal of a queue the list has).
func (m listModel) apply(e Edit) bool {
	if e.Name == "" {
		return false
	}
	if e.Remove {
		if _, ok := m[e.Name]; !ok {
			return false
		}
		delete(m, e.Name)
		return true
	}
	m[e.Name] = e.Parent
	return true
}

// list returns the model's queues, in name order.
func (m listModel) list() []Queue {
	var qs []Queue
	for _, name := range slices.Sorted(maps.Keys(m)) {
		qs = append(qs, Queue{Name: name, Parent: m[name]})
	}
	return qs
}

// sameTree fails unless a and b are the same tree: every precomputed
// array, and a Lookup of every name (and of names) finding the same ID.
func sameTree(rt *rapid.T, a, b *Tree, names []string) {
	for _, pair := range []struct {
		what string
		x, y any
	}{
		{"names", a.names, b.names}, {"parent", a.parent, b.parent},
		{"depth", a.depth, b.depth}, {"size", a.size, b.size},
		{"jump", a.jump, b.jump}, {"top", a.top, b.top},
	} {
		if fmt.Sprint(pair.x) != fmt.Sprint(pair.y) {
			rt.Fatalf("%s: got %v, want %v", pair.what, pair.x, pair.y)
		}
	}
	for _, name := range append(slices.Clone(a.names[Root+1:]), names...) {
		ga, oka := a.Lookup(name)
		gb, okb := b.Lookup(name)
		if ga != gb || oka != okb {
			rt.Fatalf("Lookup(%q) = %d, %v; want %d, %v", name, ga, oka, gb, okb)
		}
	}
}

// TestApplyEqualsNew: a tree changed by Apply, round after round (so the
// name index collects removal marks and is rebuilt when they fill it), is
// exactly the tree New builds from the model list changed by the same
// edits; an invalid edit or a changed list with a problem is an error
// exactly when the model says so, and a round that changes nothing
// returns the tree itself. Names come from a small set, so edits often
// hit existing queues, parents and removed names.
func TestApplyEqualsNew(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		pool := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-c]{1,3}`), 1, 24, rapid.ID[string]).Draw(rt, "pool")
		name := rapid.SampledFrom(pool)
		model := listModel{}
		for _, nm := range pool[:rapid.IntRange(0, len(pool)).Draw(rt, "initial")] {
			model[nm] = ""
		}
		tree, err := New(model.list())
		if err != nil {
			rt.Fatalf("New(flat list): %v", err)
		}
		for round := 0; round < 6; round++ {
			edits := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Edit {
				e := Edit{Name: name.Draw(t, "name")}
				switch rapid.IntRange(0, 39).Draw(t, "op") {
				case 0:
					e.Name = ""
				case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
					e.Remove = true
				case 11, 12, 13, 14:
				default:
					e.Parent = name.Draw(t, "parent")
				}
				return e
			}), 0, 8).Draw(rt, "edits")
			next := maps.Clone(model)
			valid := true
			for _, e := range edits {
				valid = valid && next.apply(e)
			}
			before := snapshot(tree)
			got, err := Apply(tree, edits...)
			if snapshot(tree) != before {
				rt.Fatalf("Apply(%v) changed the tree it was given", edits)
			}
			if !valid {
				counts["invalid edit"]++
				if err == nil || got != nil {
					rt.Fatalf("Apply(%v) = %v, nil; want an error", edits, got)
				}
				continue
			}
			want, wantErr := New(next.list())
			if wantErr != nil {
				counts["problem"]++
				if err == nil || got != nil {
					rt.Fatalf("Apply(%v) succeeded; New on the changed list: %v", edits, wantErr)
				}
				continue
			}
			if err != nil {
				rt.Fatalf("Apply(%v): %v", edits, err)
			}
			if maps.Equal(model, next) {
				counts["no change"]++
				if got != tree {
					rt.Fatalf("Apply(%v) changed nothing but returned a new tree", edits)
				}
			} else {
				counts["changed"]++
			}
			sameTree(rt, got, want, pool)
			if shifts, ok := got.ShiftsFrom(tree); ok {
				counts[fmt.Sprint(len(shifts), " shifts")]++
				checkShifts(rt, tree, got, shifts)
			}
			tree, model = got, next
		}
	})
	for _, k := range []string{"invalid edit", "problem", "no change", "changed", "1 shifts", "2 shifts"} {
		if counts[k] == 0 {
			t.Errorf("no round of kind %q was generated", k)
		}
	}
	t.Logf("rounds: %v", counts)
}

// TestUpdateEqualsNew: Update and UpdateTolerant of a tree with a second
// list — the first one edited (queues added, removed, moved to another
// parent, renamed, repeated, given an empty name) and shuffled — return
// exactly what New and NewTolerant return for that list: the same tree,
// or the same errors. Most second lists are clean and differ a little,
// so Update's incremental rebuild serves them.
func TestUpdateEqualsNew(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		pool := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-c]{1,3}`), 1, 30, rapid.ID[string]).Draw(rt, "pool")
		first := make([]Queue, rapid.IntRange(0, len(pool)).Draw(rt, "n"))
		for i := range first {
			first[i].Name = pool[i]
			if i > 0 && rapid.Bool().Draw(rt, "hasParent") {
				first[i].Parent = pool[rapid.IntRange(0, i-1).Draw(rt, "parent")]
			}
		}
		prev, err := New(first)
		if err != nil {
			rt.Fatalf("New(first): %v", err)
		}
		second := slices.Clone(first)
		for range rapid.IntRange(0, 4).Draw(rt, "edits") {
			name := rapid.SampledFrom(pool).Draw(rt, "name")
			switch rapid.IntRange(0, 19).Draw(rt, "op") {
			case 0:
				second = append(second, Queue{Name: ""})
			case 1:
				if len(second) > 0 {
					second = append(second, second[rapid.IntRange(0, len(second)-1).Draw(rt, "dup")])
				}
			case 2, 3, 4, 5, 6:
				second = slices.DeleteFunc(second, func(q Queue) bool { return q.Name == name })
			case 7, 8, 9, 10, 11, 12:
				second = append(second, Queue{Name: name + "x", Parent: rapid.SampledFrom(append(pool, "")).Draw(rt, "parent")})
			default:
				for i := range second {
					if second[i].Name == name {
						second[i].Parent = rapid.SampledFrom(append(pool, "")).Draw(rt, "newParent")
					}
				}
			}
		}
		second = rapid.Permutation(second).Draw(rt, "order")

		want, wantErr := New(second)
		got, reused, err := Update(prev, second)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			rt.Fatalf("Update error %v, New error %v", err, wantErr)
		}
		if wantErr == nil {
			sameTree(rt, got, want, pool)
			if reused != (got == prev) {
				rt.Fatalf("reused = %v for a tree that is prev: %v", reused, got == prev)
			}
			counts[fmt.Sprint("clean, reused ", reused)]++
		} else {
			counts["problem"]++
		}
		wantT, wantProblems := NewTolerant(second)
		gotT, _, problems := UpdateTolerant(prev, second)
		if fmt.Sprint(problems) != fmt.Sprint(wantProblems) {
			rt.Fatalf("UpdateTolerant problems %v, NewTolerant %v", problems, wantProblems)
		}
		sameTree(rt, gotT, wantT, pool)
	})
	for _, k := range []string{"clean, reused true", "clean, reused false", "problem"} {
		if counts[k] == 0 {
			t.Errorf("no case of kind %q was generated", k)
		}
	}
	t.Logf("cases: %v", counts)
}

// TestApplyEdges: Apply to a nil or zero tree builds from the edits alone;
// an empty name and the removal of a queue the list lacks (never there,
// or removed by an earlier edit) are errors naming the edit.
func TestApplyEdges(t *testing.T) {
	for _, prev := range []*Tree{nil, {}} {
		got, err := Apply(prev, Edit{Name: "b", Parent: "a"}, Edit{Name: "a"})
		if err != nil || got.Len() != 3 {
			t.Fatalf("Apply(%v) = %v, %v; want a tree of 2 queues", prev, got, err)
		}
		if b, _ := got.Lookup("b"); got.Name(got.Parent(b)) != "a" {
			t.Errorf("b's parent is %q, want a", got.Name(got.Parent(b)))
		}
	}
	tree, _ := New([]Queue{{Name: "a"}})
	for _, c := range []struct {
		edits []Edit
		want  string
	}{
		{[]Edit{{Name: "b"}, {Parent: "a"}}, `queuetree: edit 1 has an empty name`},
		{[]Edit{{Name: "b", Remove: true}}, `queuetree: edit 0 removes queue "b", which the list does not have`},
		{[]Edit{{Name: "a", Remove: true}, {Name: "a", Remove: true}}, `queuetree: edit 1 removes queue "a", which the list does not have`},
	} {
		got, err := Apply(tree, c.edits...)
		if got != nil || fmt.Sprint(err) != c.want {
			t.Errorf("Apply(%v) = %v, %v; want nil, %s", c.edits, got, err, c.want)
		}
	}
	if got, err := Apply(tree, Edit{Name: "b"}, Edit{Name: "b", Remove: true}); got != tree || err != nil {
		t.Errorf("an add undone in the same call: %v, %v; want the tree itself", got, err)
	}
}

// checkShifts fails unless mapping each ID of prev through shifts gives
// the ID its queue has in t (None for a queue t does not have, and for a
// moved one, whose removal is the first of two shifts; Root stays Root).
func checkShifts(rt *rapid.T, prev, t *Tree, shifts []Shift) {
	for id := Root; int(id) <= prev.Len(); id++ {
		got := id
		for _, s := range shifts {
			got = s.Map(got)
		}
		want := Root
		switch {
		case len(shifts) == 2 && id == shifts[0].At:
			want = None // moved: removed, then added again
		case id != Root:
			want, _ = t.Lookup(prev.Name(id))
		}
		if got != want {
			rt.Fatalf("shifts %v map %d (%q) to %d, want %d", shifts, id, prev.Name(id), got, want)
		}
	}
}

// TestShiftsKeepNoPredecessor: ShiftsFrom hands out a copy of the shifts,
// and a patched tree refers to the tree it was patched from weakly, so a
// session that keeps only its latest tree keeps no chain of older ones
// alive.
func TestShiftsKeepNoPredecessor(t *testing.T) {
	first, _ := New([]Queue{{Name: "a"}})
	second, err := Apply(first, Edit{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	shifts, ok := second.ShiftsFrom(first)
	if !ok {
		t.Fatal("a one-queue Apply recorded no shift")
	}
	shifts[0].At = None // the caller's copy
	if again, _ := second.ShiftsFrom(first); again[0].At == None {
		t.Error("ShiftsFrom returned the tree's own record, which a caller changed")
	}
	first = nil
	runtime.GC()
	runtime.GC()
	if second.shifts.from.Value() != nil {
		t.Error("the patched tree keeps the tree it was patched from alive")
	}
}

// snapshot is every array of t, the name index's included, as text: equal
// snapshots taken before and after a call show that the call left t as it
// was.
func snapshot(t *Tree) string {
	return fmt.Sprint(t.names, t.parent, t.depth, t.size, t.jump, t.top, t.index.slots, t.index.used)
}

// TestApplyKeepsRepairs pins what Apply's doc says of a tree NewTolerant
// repaired: Apply changes the tree's own list, the one after the repairs,
// so a queue made top-level for an unknown parent stays top-level when
// that parent is added, while UpdateTolerant with the watched list redoes
// the repair (and places it under the parent).
func TestApplyKeepsRepairs(t *testing.T) {
	snap := []Queue{{Name: "a", Parent: "ghost"}}
	tree, problems := NewTolerant(snap)
	if len(problems) != 1 {
		t.Fatalf("problems %v, want one (the unknown parent)", problems)
	}
	parentOf := func(tr *Tree) string { id, _ := tr.Lookup("a"); return tr.Name(tr.Parent(id)) }
	applied, err := Apply(tree, Edit{Name: "ghost"})
	if err != nil || parentOf(applied) != "" {
		t.Errorf("Apply: a's parent %q, %v; want a kept top-level", parentOf(applied), err)
	}
	updated, _, _ := UpdateTolerant(tree, append(snap, Queue{Name: "ghost"}))
	if parentOf(updated) != "ghost" {
		t.Errorf("UpdateTolerant: a's parent %q, want ghost", parentOf(updated))
	}
}

// editModel is the naive oracle of ApplyTolerant's list: the input list
// as given, changed one edit at a time; it reports false for an edit
// ApplyTolerant skips.
func editModel(list []Queue, e Edit) ([]Queue, bool) {
	if e.Name == "" {
		return list, false
	}
	has := slices.ContainsFunc(list, func(q Queue) bool { return q.Name == e.Name })
	switch {
	case e.Remove && !has:
		return list, false
	case e.Remove:
		return slices.DeleteFunc(slices.Clone(list), func(q Queue) bool { return q.Name == e.Name }), true
	case !has:
		return append(slices.Clone(list), Queue{Name: e.Name, Parent: e.Parent}), true
	}
	out := slices.Clone(list)
	for i := range out {
		if out[i].Name == e.Name {
			out[i].Parent = e.Parent
		}
	}
	return out, true
}

// problemKey is a problem without its input position, which depends on
// how a list is written out.
func problemKey(err error) string {
	var p *Problem
	if !errors.As(err, &p) {
		return err.Error()
	}
	q := *p
	q.Index, q.First = 0, 0
	return fmt.Sprintf("%+v", q)
}

// TestApplyTolerantEqualsNewTolerant: round after round of edits, from a
// first list with every kind of problem, ApplyTolerant returns the tree
// NewTolerant builds from the model list (the input list changed by the
// valid edits), never nil, with NewTolerant's problems (up to input
// positions) after one error per skipped edit; and for a clean prev and a
// clean changed list it returns what Apply returns.
func TestApplyTolerantEqualsNewTolerant(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		pool := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-c]{1,2}`), 1, 12, rapid.ID[string]).Draw(rt, "pool")
		name := rapid.SampledFrom(pool)
		var list []Queue
		for range rapid.IntRange(0, 10).Draw(rt, "n") {
			q := Queue{Name: name.Draw(rt, "name")}
			switch rapid.IntRange(0, 5).Draw(rt, "first") {
			case 0:
				q.Name = "" // an empty name, kept in the input list
			case 1, 2:
				q.Parent = name.Draw(rt, "parent") // maybe unknown, maybe a cycle
			}
			list = append(list, q)
		}
		tree, _ := NewTolerant(list)
		for round := 0; round < 5; round++ {
			edits := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Edit {
				e := Edit{Name: name.Draw(t, "name"), Parent: rapid.SampledFrom(append(pool, "", "ghost")).Draw(t, "parent")}
				switch rapid.IntRange(0, 9).Draw(t, "op") {
				case 0:
					e.Name = ""
				case 1, 2, 3:
					e.Remove = true
				}
				return e
			}), 0, 4).Draw(rt, "edits")
			next, skipped := list, 0
			for _, e := range edits {
				var ok bool
				if next, ok = editModel(next, e); !ok {
					skipped++
				}
			}
			before := snapshot(tree)
			got, problems := ApplyTolerant(tree, edits...)
			if got == nil || snapshot(tree) != before {
				rt.Fatalf("ApplyTolerant(%v) = nil, or changed its input tree", edits)
			}
			want, wantProblems := NewTolerant(next)
			sameTree(rt, got, want, append(pool, "ghost"))
			if len(problems) < skipped {
				rt.Fatalf("%d problems for %d skipped edits", len(problems), skipped)
			}
			gotKeys, wantKeys := make([]string, 0), make([]string, 0)
			for _, p := range problems[skipped:] {
				gotKeys = append(gotKeys, problemKey(p))
			}
			for _, p := range wantProblems {
				wantKeys = append(wantKeys, problemKey(p))
			}
			slices.Sort(gotKeys)
			slices.Sort(wantKeys)
			if !slices.Equal(gotKeys, wantKeys) {
				rt.Fatalf("problems %v, NewTolerant's %v", gotKeys, wantKeys)
			}
			if tree.repaired == nil && len(wantProblems) == 0 && skipped == 0 {
				counts["clean"]++
				applied, err := Apply(tree, edits...)
				if err != nil {
					rt.Fatalf("Apply(%v) refused a clean change: %v", edits, err)
				}
				sameTree(rt, got, applied, pool)
				if (applied == tree) != (got == tree) {
					rt.Fatalf("Apply reused the tree: %v, ApplyTolerant: %v", applied == tree, got == tree)
				}
			} else {
				counts["repaired"]++
			}
			tree, list = got, next
		}
	})
	for _, k := range []string{"clean", "repaired"} {
		if counts[k] == 0 {
			t.Errorf("no round of kind %q", k)
		}
	}
	t.Logf("rounds: %v", counts)
}

// TestTolerantRoundTrips pins how the tolerant calls meet on one tree: a
// clean list that describes a repaired tree's queues gets a copy without
// the record of the repairs (the list is not the one the tree was built
// from), so ApplyTolerant afterwards does not redo repairs of a list the
// caller no longer has; and edits that leave a repaired tree's input list
// as it was return the tree itself, with its problems again.
func TestTolerantRoundTrips(t *testing.T) {
	prev, problems := NewTolerant([]Queue{{Name: "a", Parent: "ghost"}}) // a made top-level
	now := []Queue{{Name: "a"}}                                          // the queue was fixed
	fixed, reused, fixedProblems := UpdateTolerant(prev, now)
	if reused || fixedProblems != nil || fixed.repaired != nil || snapshot(fixed) != snapshot(prev) {
		t.Fatalf("UpdateTolerant of the fixed list: reused %v, problems %v, repairs kept %v; want a copy without them", reused, fixedProblems, fixed.repaired != nil)
	}
	if strict, reused, err := Update(prev, now); err != nil || reused || strict.repaired != nil {
		t.Fatalf("Update of the fixed list: reused %v, %v, repairs kept %v", reused, err, strict.repaired != nil)
	}
	got, _ := ApplyTolerant(fixed, Edit{Name: "ghost"})
	if a, _ := got.Lookup("a"); got.Name(got.Parent(a)) != "" {
		t.Errorf("after the fixed list and an edit adding ghost, a is under %q; want top-level", got.Name(got.Parent(a)))
	}
	same, again := ApplyTolerant(prev, Edit{Name: "a", Parent: "ghost"})
	if same != prev || fmt.Sprint(again) != fmt.Sprint(problems) {
		t.Errorf("an edit that changes nothing: tree reused %v, problems %v; want prev and %v", same == prev, again, problems)
	}
}
