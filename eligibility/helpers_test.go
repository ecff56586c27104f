package eligibility_test

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/internal/eltest"
)

// The shared fixtures (package eltest), under this package's test names.
var (
	elMin   = eltest.Min
	elSetup = eltest.Setup
	elID    = eltest.ID
)

type elQueue = eltest.Queue

// elLogHandler records (level, message) pairs.
type elLogHandler struct {
	mu    sync.Mutex
	min   slog.Level
	lines []string
}

func (h *elLogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.min }
func (h *elLogHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, r.Level.String()+" "+r.Message)
	return nil
}
func (h *elLogHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *elLogHandler) WithGroup(string) slog.Handler      { return h }

// explicit returns a pointer to d, for a QueueSetting or a MinAdmitDuration.
func explicit(d time.Duration) *time.Duration { return &d }
