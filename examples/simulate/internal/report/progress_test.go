package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf)
	p.Update("priority", 50, 100)
	p.Finish()
	if buf.Len() != 0 {
		t.Errorf("progress wrote to a non-terminal: %q", buf.String())
	}

	now := time.Unix(0, 0)
	p = NewProgress(&buf)
	p.tty, p.start, p.now = true, now, func() time.Time { return now }
	p.Update("priority", 10, 100) // before the delay: quiet
	if buf.Len() != 0 {
		t.Errorf("progress before %v: %q", progressDelay, buf.String())
	}
	now = now.Add(3 * time.Second)
	p.Update("priority (1/4)", 1, 4) // a quarter in 3 s: 9 s left
	if want := "simulate: priority (1/4)  25%  9s left (3s so far)"; !strings.Contains(buf.String(), want) {
		t.Errorf("progress: %q, want %q", buf.String(), want)
	}
	p.Finish()
	if !strings.HasSuffix(buf.String(), "\r\033[K") {
		t.Errorf("finish did not clear the line: %q", buf.String())
	}
}
