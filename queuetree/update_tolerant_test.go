package queuetree_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/queuetree"
)

func errStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestUpdateTolerant: a tree NewTolerant built from an inconsistent list
// is reused for the same list, with the same problems reported again; any
// other list is rebuilt tolerantly; the result is never nil.
func TestUpdateTolerant(t *testing.T) {
	bad := []queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "ghost"}, {Name: "a", Parent: "b"}, {Name: "c", Parent: "a"}, {Name: ""}}
	prev, perrs := queuetree.NewTolerant(bad)
	if len(perrs) == 0 {
		t.Fatal("the list has problems")
	}
	// The strict Update cannot take such a list.
	if got, reused, err := queuetree.Update(prev, bad); got != nil || reused || err == nil {
		t.Errorf("Update(bad) = %p, %v, %v; want nil, false, an error", got, reused, err)
	}
	got, reused, errs := queuetree.UpdateTolerant(prev, bad)
	if got != prev || !reused {
		t.Errorf("UpdateTolerant(same bad list) = %p, %v; want prev %p, true", got, reused, prev)
	}
	if diff := cmp.Diff(errStrings(perrs), errStrings(errs)); diff != "" {
		t.Errorf("problems (-build +update):\n%s", diff)
	}
	// A changed list (here, another order: repairs depend on it) is rebuilt.
	swapped := append([]queuetree.Queue(nil), bad...)
	swapped[0], swapped[2] = swapped[2], swapped[0]
	got, reused, errs = queuetree.UpdateTolerant(prev, swapped)
	want, wantErrs := queuetree.NewTolerant(swapped)
	if got == nil || got == prev || reused || fmt.Sprint(errStrings(errs)) != fmt.Sprint(errStrings(wantErrs)) || !sameTree(got, want) {
		t.Errorf("UpdateTolerant(swapped) = %p, %v, %v", got, reused, errs)
	}
	// A clean list: the same as Update, both ways.
	clean := []queuetree.Queue{{Name: "a"}, {Name: "b", Parent: "a"}}
	cprev, _ := queuetree.NewTolerant(clean)
	if got, reused, errs := queuetree.UpdateTolerant(cprev, []queuetree.Queue{clean[1], clean[0]}); got != cprev || !reused || errs != nil {
		t.Errorf("UpdateTolerant(clean, reordered) = %p, %v, %v", got, reused, errs)
	}
	if got, reused, errs := queuetree.UpdateTolerant(nil, bad); got == nil || reused || len(errs) == 0 {
		t.Errorf("UpdateTolerant(nil, bad) = %p, %v, %v", got, reused, errs)
	}
	// A tree built strictly from a clean list is reused for the bad list's
	// clean part only when it describes it; the bad list is rebuilt.
	if got, reused, _ := queuetree.UpdateTolerant(cprev, bad); got == nil || reused {
		t.Errorf("UpdateTolerant(clean prev, bad) = %p, %v", got, reused)
	}
}

// sameTree compares two trees by their queues' names, parents and IDs.
func sameTree(a, b *queuetree.Tree) bool {
	if a.Len() != b.Len() {
		return false
	}
	for id := range a.IDs() {
		if a.Name(id) != b.Name(id) || a.Parent(id) != b.Parent(id) {
			return false
		}
	}
	return true
}
