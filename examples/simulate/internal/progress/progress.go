package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// Mode says when a Meter shows progress.
type Mode int

const (
	// Auto shows progress only when the writer is a terminal.
	Auto Mode = iota
	// Always shows progress even when the writer is not a terminal.
	Always
	// Never shows nothing.
	Never
)

// ParseMode parses the -progress flag's value: "auto", "always" (or
// "on", "true") and "never" (or "off", "false").
func ParseMode(s string) (Mode, error) {
	switch s {
	case "auto", "":
		return Auto, nil
	case "always", "on", "true":
		return Always, nil
	case "never", "off", "false":
		return Never, nil
	}
	return Auto, fmt.Errorf("progress: mode %q is not auto, always or never", s)
}

// String returns the flag spelling of m.
func (m Mode) String() string {
	switch m {
	case Always:
		return "always"
	case Never:
		return "never"
	}
	return "auto"
}

const (
	// Delay is how long a run goes before anything is shown.
	Delay = 2 * time.Second
	// TermEvery is the redraw interval on a terminal.
	TermEvery = 250 * time.Millisecond
	// LogEvery is the interval between lines when the writer is not a terminal.
	LogEvery = 10 * time.Second
)

// Meter is a progress indicator writing to one writer. Create it with New.
type Meter struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	tty   bool
	clk   clock.Clock
	start time.Time
	last  time.Time
	shown bool
}

// New returns a Meter writing to w in mode m, timed by clk (clock.Func(time.Now)
// in production). The run's start is clk's time now.
func New(w io.Writer, m Mode, clk clock.Clock) *Meter {
	tty := IsTerminal(w)
	on := m == Always || (m == Auto && tty)
	return &Meter{w: w, on: on, tty: tty, clk: clk, start: clk.Now()}
}

// IsTerminal reports whether w is an *os.File on a character device.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Enabled reports whether the Meter will ever show anything.
func (p *Meter) Enabled() bool { return p.on }

// ETA returns the time left when a fraction frac of the work took elapsed,
// extrapolating at the same rate, and false when frac <= 0 (no estimate
// yet). frac is clamped to at most 1.
func ETA(elapsed time.Duration, frac float64) (time.Duration, bool) {
	if !(frac > 0) {
		return 0, false
	}
	frac = min(frac, 1)
	return time.Duration(float64(elapsed) * (1 - frac) / frac), true
}

// Update reports that label is running and that done of total units are
// covered. It writes when the Meter is enabled, Delay has passed since the
// start and the redraw interval since the last write.
func (p *Meter) Update(label string, done, total float64) {
	if !p.on || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clk.Now()
	elapsed := now.Sub(p.start)
	every := LogEvery
	if p.tty {
		every = TermEvery
	}
	if elapsed < Delay || (p.shown && now.Sub(p.last) < every) {
		return
	}
	p.last, p.shown = now, true
	frac := min(max(done/total, 0), 1)
	eta := "?"
	if left, ok := ETA(elapsed, frac); ok {
		eta = left.Round(time.Second).String()
	}
	line := fmt.Sprintf("simulate: %s  %.0f%%  %s left (%s so far)", label, 100*frac, eta, elapsed.Round(time.Second))
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K"+line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

// Finish erases a terminal indicator if it was shown; on a log it writes
// nothing.
func (p *Meter) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
