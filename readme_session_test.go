package tenure_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// sessionState is what a scheduler plugin keeps across sessions, as the
// README's section "Embedding per scheduling session" names it (s).
type sessionState struct {
	tree     *queuetree.Tree
	resolver *runtime.Resolver
}

// warnings stands for the plugin's logger in the README's blocks.
type warnings struct{ lines []string }

// Warn records a repaired problem.
func (w *warnings) Warn(err error) { w.lines = append(w.lines, err.Error()) }

// perSession is the README's per-session block.
func perSession(s *sessionState, queues []queuetree.Queue, cfg runtime.Config, method runtime.Method, log *warnings) eligibility.MinRuntimeFilter {
	// s: the plugin's state across sessions.
	tree, _, problems := queuetree.UpdateTolerant(s.tree, queues) // never nil
	r, _, rproblems := runtime.UpdateResolverTolerant(s.resolver, tree, cfg)
	for _, p := range append(problems, rproblems...) {
		log.Warn(p) // repaired, not fatal
	}
	s.tree, s.resolver = tree, r
	filter := eligibility.MinRuntimeFilter{Resolver: r.WithMethod(method)}
	return filter
}

// onQueueEvent is the README's watch block.
func onQueueEvent(s *sessionState, q queuetree.Queue, cfg runtime.Config) error {
	// A Queue object was created or changed; a deletion is Edit{Name: q.Name, Remove: true}.
	next, err := queuetree.Apply(s.tree, queuetree.Edit{Name: q.Name, Parent: q.Parent})
	if err != nil {
		return err // an unknown parent, a cycle: s.tree is unchanged
	}
	r, _, err := runtime.UpdateResolver(s.resolver, next, cfg) // patched, not rebuilt
	if err != nil {
		return err
	}
	s.tree, s.resolver = next, r
	return nil
}

// TestREADMESessionBlocks: each Go block of the README's section
// "Embedding per scheduling session" is, line for line, the body of one
// of the functions above, and the functions do what the section says: an
// inconsistent snapshot is repaired with warnings, and a watch event
// patches the tree and the resolver (the resolver answering as a fresh
// one) or leaves them alone on an error.
func TestREADMESessionBlocks(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "readme_session_test.go")
	start := strings.Index(readme, "## Embedding per scheduling session")
	end := strings.Index(readme[start+1:], "\n## ") + start + 1
	section := readme[start:end]
	blocks := fencedBlocks(section, strings.Count(section, "```go"))
	if len(blocks) != 2 {
		t.Fatalf("the section has %d Go blocks, want 2", len(blocks))
	}
	for _, b := range blocks {
		indented := "\t" + strings.ReplaceAll(b, "\n", "\n\t")
		if !strings.Contains(src, indented) {
			t.Errorf("README block is not a function body of readme_session_test.go:\n%s", b)
		}
	}

	cfg := runtime.Config{DefaultReclaim: time.Minute, Queues: []runtime.QueueSetting{{Queue: "prod", Reclaim: runtime.Explicit(time.Hour)}}}
	var s sessionState
	var log warnings
	perSession(&s, []queuetree.Queue{{Name: "prod"}, {Name: "dev", Parent: "gone"}}, cfg, runtime.MethodLCA, &log)
	if s.tree == nil || s.resolver == nil || len(log.lines) != 1 {
		t.Fatalf("a snapshot with an orphan: tree %v, resolver %v, warnings %q; want both and one warning", s.tree, s.resolver, log.lines)
	}
	before := s.tree
	if err := onQueueEvent(&s, queuetree.Queue{Name: "team", Parent: "prod"}, cfg); err != nil {
		t.Fatal(err)
	}
	fresh, err := runtime.NewResolver(s.tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	team, _ := s.tree.Lookup("team")
	dev, _ := s.tree.Lookup("dev")
	if got, want := s.resolver.Reclaim(dev, team), fresh.Reclaim(dev, team); got != want || got.Duration != time.Hour {
		t.Errorf("after the event: %v, fresh resolver %v; want prod's hour", got, want)
	}
	if _, ok := s.tree.ShiftsFrom(before); !ok {
		t.Error("one queue added was not patched")
	}
	kept := s.tree
	err = onQueueEvent(&s, queuetree.Queue{Name: "x", Parent: "nowhere"}, cfg)
	if err == nil || s.tree != kept {
		t.Errorf("an unknown parent: %v, tree replaced %v; want an error and the tree kept", err, s.tree != kept)
	}
}
