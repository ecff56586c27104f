package tenure_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/queuetree"
	tenureruntime "github.com/tenurepolicy/tenure/runtime"
)

// sessionState is what a scheduler plugin keeps across sessions, as the
// README's section "Embedding per scheduling session" names it (s).
type sessionState struct {
	tree     *queuetree.Tree
	resolver *tenureruntime.Resolver
}

// warnings is a slog handler that keeps the records' messages and
// problems, for the README blocks' logger.
type warnings struct{ lines []string }

func (w *warnings) Enabled(context.Context, slog.Level) bool { return true }
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *warnings) WithGroup(string) slog.Handler            { return w }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	r.Attrs(func(a slog.Attr) bool { line += " " + a.Value.String(); return true })
	w.lines = append(w.lines, line)
	return nil
}

// policySession is the README's per-session block for a Policy.
func policySession(policy *tenure.Policy, queues []tenure.Queue, logger *slog.Logger) *tenure.Policy {
	// policy: the last session's Policy; queues: this session's []tenure.Queue.
	next, problems := policy.UpdateQueuesTolerant(queues) // the same Policy when nothing changed
	for _, p := range problems {
		logger.Warn("queue problem repaired", "problem", p)
	}
	policy = next // never nil
	return policy
}

// perSession is the README's per-session block.
func perSession(s *sessionState, queues []queuetree.Queue, cfg tenureruntime.Config, method tenureruntime.Method, logger *slog.Logger) minruntime.Filter {
	// s: the plugin's state across sessions.
	tree, _, problems := queuetree.UpdateTolerant(s.tree, queues) // never nil
	r, _, rproblems := tenureruntime.UpdateResolverTolerant(s.resolver, tree, cfg)
	for _, p := range append(problems, rproblems...) {
		logger.Warn("queue problem repaired", "problem", p) // repaired, not fatal
	}
	s.tree, s.resolver = tree, r
	filter := minruntime.Filter{Resolver: r.WithMethod(method)}
	return filter
}

// onQueueEvent is the README's watch block.
func onQueueEvent(s *sessionState, q queuetree.Queue, set tenureruntime.QueueSetting, logger *slog.Logger) {
	// A Queue object was created or changed: q its name and parent, set its min-runtime
	// fields (tenureruntime.QueueFields{...}.Setting(); neither set: it has none). A
	// deletion is Edit{Name: q.Name, Remove: true} and no setting: the queue's goes with it.
	next, problems := queuetree.ApplyTolerant(s.tree, queuetree.Edit{Name: q.Name, Parent: q.Parent})
	r, rproblems := tenureruntime.ApplyResolverTolerant(s.resolver, next, set) // no Config compared
	for _, p := range append(problems, rproblems...) {
		logger.Warn("queue problem repaired", "problem", p)
	}
	s.tree, s.resolver = next, r // never nil
}

// TestREADMESessionBlocks: each Go block of the README's section
// "Embedding per scheduling session" is, line for line, the body of one
// of the functions above, and the functions do what the section says: an
// inconsistent snapshot is repaired with a warning; a watch event patches
// the tree and the resolver, which answers as a fresh one; and an event
// that arrives before its parent is applied, repaired, and placed under
// the parent once that arrives.
func TestREADMESessionBlocks(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "readme_session_test.go")
	start := strings.Index(readme, "## Embedding per scheduling session")
	end := strings.Index(readme[start+1:], "\n## ") + start + 1
	section := readme[start:end]
	blocks := fencedBlocks(section, strings.Count(section, "```go"))
	if len(blocks) != 3 {
		t.Fatalf("the section has %d Go blocks, want 3", len(blocks))
	}
	for _, b := range blocks {
		indented := "\t" + strings.ReplaceAll(b, "\n", "\n\t")
		if !strings.Contains(src, indented) {
			t.Errorf("README block is not a function body of readme_session_test.go:\n%s", b)
		}
	}

	var w0 warnings
	policy, err := tenure.New(tenure.Config{Queues: []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}}})
	if err != nil {
		t.Fatal(err)
	}
	same := policySession(policy, []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}}, slog.New(&w0))
	next := policySession(policy, []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}, {Name: "dev", Parent: "gone"}}, slog.New(&w0))
	if same != policy || next == policy || next == nil || len(w0.lines) != 1 {
		t.Fatalf("Policy session: unchanged %p (want %p), changed %p, warnings %q; want one warning", same, policy, next, w0.lines)
	}

	cfg := tenureruntime.Config{DefaultReclaim: time.Minute, Queues: []tenureruntime.QueueSetting{{Queue: "prod", Reclaim: tenureruntime.Explicit(time.Hour)}}}
	var s sessionState
	var w warnings
	logger := slog.New(&w)
	perSession(&s, []queuetree.Queue{{Name: "prod"}, {Name: "dev", Parent: "gone"}}, cfg, tenureruntime.MethodLCA, logger)
	if s.tree == nil || s.resolver == nil || len(w.lines) != 1 {
		t.Fatalf("a snapshot with an orphan: tree %v, resolver %v, warnings %q; want both and one warning", s.tree, s.resolver, w.lines)
	}

	// A watch from a clean start: one queue added patches tree and resolver.
	s, w.lines = sessionState{}, nil
	perSession(&s, []queuetree.Queue{{Name: "prod"}, {Name: "dev"}}, cfg, tenureruntime.MethodLCA, logger)
	before := s.tree
	onQueueEvent(&s, queuetree.Queue{Name: "team", Parent: "prod"}, tenureruntime.QueueSetting{Queue: "team"}, logger)
	if _, ok := s.tree.ShiftsFrom(before); !ok || len(w.lines) != 0 {
		t.Fatalf("one queue added: patched %v, warnings %q; want a patch and no warning", ok, w.lines)
	}
	sameAsFresh(t, &s, cfg, "dev", "team", time.Hour)

	// An event before its parent's: applied and repaired, then placed;
	// the parent arrives with a setting of its own, which vision inherits.
	onQueueEvent(&s, queuetree.Queue{Name: "vision", Parent: "robots"}, tenureruntime.QueueSetting{Queue: "vision"}, logger)
	if len(w.lines) != 1 || !strings.Contains(w.lines[0], `"robots"`) {
		t.Fatalf("warnings %q, want one naming the missing parent robots", w.lines)
	}
	robots := tenureruntime.QueueSetting{Queue: "robots", Reclaim: tenureruntime.Explicit(2 * time.Hour)}
	onQueueEvent(&s, queuetree.Queue{Name: "robots", Parent: "prod"}, robots, logger)
	vision, _ := s.tree.Lookup("vision")
	if got := s.tree.Path(vision); strings.Join(got, "/") != "prod/robots/vision" {
		t.Errorf("vision's path %v once robots arrived, want prod/robots/vision", got)
	}
	cfg.Queues = append(cfg.Queues, robots)
	sameAsFresh(t, &s, cfg, "team", "vision", 2*time.Hour) // lca: prod, then robots

	// A bad setting on one event is repaired and reported, never fatal.
	w.lines = nil
	bad := tenureruntime.QueueSetting{Queue: "team", Reclaim: tenureruntime.Explicit(-time.Minute)}
	onQueueEvent(&s, queuetree.Queue{Name: "team", Parent: "prod"}, bad, logger)
	if s.resolver == nil || len(w.lines) != 1 || !strings.Contains(w.lines[0], "negative") {
		t.Fatalf("a negative setting: resolver %v, warnings %q; want a resolver and one warning", s.resolver, w.lines)
	}
}

// sameAsFresh fails unless s's resolver answers a reclaim by the queue
// named by of a job in the queue named in as a fresh resolver does, and
// with want.
func sameAsFresh(t *testing.T, s *sessionState, cfg tenureruntime.Config, by, in string, want time.Duration) {
	t.Helper()
	fresh, err := tenureruntime.NewResolver(s.tree, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.tree.Lookup(by)
	b, _ := s.tree.Lookup(in)
	if got, w := s.resolver.Reclaim(a, b), fresh.Reclaim(a, b); got != w || got.Duration != want {
		t.Errorf("Reclaim(%s, %s) = %v, fresh resolver %v; want %v", by, in, got, w, want)
	}
}
