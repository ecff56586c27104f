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
func policySession(policy *tenure.Policy, queues []tenure.Queue, logger *slog.Logger) *tenure.Policy {
	// policy: the last session's Policy; queues: this session's []tenure.Queue;
	// logger: your *slog.Logger.
	next, err := policy.UpdateQueues(queues) // the same Policy when nothing changed
	if err != nil {
		// Every problem at once, each a *tenure.ConfigError. A bad queue must not stop
		// the session: next was built from the queues repaired, so log them and go on.
		logger.Warn("queue problems repaired", "problems", err)
	}
	return next // if next != policy, look the jobs' queues up again (next.QueueID)
}

// TestREADMESessionBlocks: the Go block of the README's section "Per
// scheduling session" is, line for line, the body of the function above,
// and the function does what the section says: an unchanged list (in
// another order) gives the same Policy, a list with problems gives a Policy
// of the repaired queues with one warning naming every problem (an orphan
// becomes top-level; a min-runtime string that does not parse is ignored,
// so its queue inherits), a changed list gives a new
// Policy, and a slice sized as the README's embedding section sizes it has a
// slot for every queue's ID.
func TestREADMESessionBlocks(t *testing.T) {
	readme := readFile(t, "README.md")
	src := readFile(t, "readme_session_test.go")
	start := strings.Index(readme, "\n### Per scheduling session\n")
	if start < 0 {
		t.Fatal(`README has no "Per scheduling session" section`)
	}
	end := strings.Index(readme[start+1:], "\n#") + start + 1
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
	logger := slog.New(&w)
	cfg := tenure.Config{Queues: []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}, {Name: "dev"}}}
	policy, err := tenure.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	same := policySession(policy, []tenure.Queue{{Name: "dev"}, {Name: "prod", ReclaimMinRuntime: "1h"}}, logger)
	bad := policySession(policy, []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}, {Name: "dev", Parent: "gone"}, {Name: "ci", Parent: "dev", PreemptMinRuntime: "-5m"}}, logger)
	if same != policy || bad == nil || bad == policy || len(w.lines) != 1 {
		t.Fatalf("Policy session: unchanged %p (want %p), bad %p (want a new Policy), warnings %q; want one warning", same, policy, bad, w.lines)
	}
	if !strings.Contains(w.lines[0], `"gone"`) || !strings.Contains(w.lines[0], `"-5m"`) {
		t.Errorf("warning %q, want the orphan's and the bad string's problems", w.lines[0])
	}
	dev, err := bad.QueueID("dev")
	if err != nil || bad.Tree().Parent(dev) != queuetree.Root {
		t.Errorf("repaired Policy: dev is %v (%v), want a top-level queue", dev, err)
	}
	w.lines = nil
	changed := []tenure.Queue{{Name: "prod", ReclaimMinRuntime: "1h"}, {Name: "dev"}, {Name: "ci", Parent: "dev", PreemptMinRuntime: "5m"}}
	next := policySession(policy, changed, logger)
	if next == policy || next == nil || len(w.lines) != 0 {
		t.Fatalf("Policy session: changed list gave %p (old %p), warnings %q", next, policy, w.lines)
	}
	running := make([]int, next.Tree().IDLimit()) // as the README's embedding section says
	for _, q := range changed {
		id, err := next.QueueID(q.Name)
		if err != nil {
			t.Fatal(err)
		}
		running[id]++ // in range for every queue, the last one included
	}
	running[queuetree.None]++
	if len(running) != len(changed)+2 {
		t.Errorf("per-ID slice of %d for %d queues, want %d", len(running), len(changed), len(changed)+2)
	}
}
