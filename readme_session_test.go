package tenure_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure"
	"github.com/tenurepolicy/tenure/queuetree"
)

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
func policySession(policy *tenure.Policy, cfg tenure.Config, queues []tenure.Queue, logger *slog.Logger) *tenure.Policy {
	// policy: the last session's Policy, built from cfg; queues: this session's []tenure.Queue.
	next, err := policy.UpdateQueues(queues) // the same Policy when nothing changed
	if err != nil {
		// A bad queue must not stop the session: repair it and report it.
		cfg.Queues = queues
		var problems []error
		next, problems = tenure.NewTolerant(cfg)
		for _, p := range problems {
			logger.Warn("queue problem repaired", "problem", p)
		}
	}
	policy = next // never nil: the rest of cfg built policy
	return policy
}

// TestREADMESessionBlocks: each Go block of the README's section
// "Embedding per scheduling session" is, line for line, the body of one
// of the functions above, and the functions do what the section says: an
// unchanged list gives the same Policy, an inconsistent snapshot is
// repaired with a warning, and a slice sized as the README's embedding
// section sizes it has a slot for every queue's ID.
func TestREADMESessionBlocks(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "readme_session_test.go")
	start := strings.Index(readme, "## Embedding per scheduling session")
	end := strings.Index(readme[start+1:], "\n## ") + start + 1
	section := readme[start:end]
	blocks := fencedBlocks(section, strings.Count(section, "```go"))
	if len(blocks) != 1 {
		t.Fatalf("the section has %d Go blocks, want 1", len(blocks))
	}
	for _, b := range blocks {
		indented := "\t" + strings.ReplaceAll(b, "\n", "\n\t")
		if !strings.Contains(src, indented) {
			t.Errorf("README block is not a function body of readme_session_test.go:\n%s", b)
		}
	}

	var w warnings
	cfg := tenure.Config{Queues: []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}}}
	policy, err := tenure.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	same := policySession(policy, cfg, []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}}, slog.New(&w))
	bad := []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}, {Name: "dev", Parent: "gone"}, {Name: "ci", Parent: "dev", PreemptMinRuntime: "-5m"}}
	next := policySession(policy, cfg, bad, slog.New(&w))
	if same != policy || next == policy || next == nil || len(w.lines) != 2 {
		t.Fatalf("Policy session: unchanged %p (want %p), changed %p, warnings %q; want two warnings", same, policy, next, w.lines)
	}
	if !strings.Contains(w.lines[0], `"gone"`) || !strings.Contains(w.lines[1], `"-5m"`) {
		t.Errorf("warnings %q, want the orphan's and the bad string's", w.lines)
	}
	running := make([]int, next.Tree().IDLimit()) // as the README's embedding section says
	for _, q := range bad {
		id, err := next.QueueID(q.Name)
		if err != nil {
			t.Fatal(err)
		}
		running[id]++ // in range for every queue, the last one included
	}
	running[queuetree.None]++
	if len(running) != len(bad)+2 {
		t.Errorf("per-ID slice of %d for %d queues, want %d", len(running), len(bad), len(bad)+2)
	}
}
