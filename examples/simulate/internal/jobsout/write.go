package jobsout

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
)

// header is the CSV header, in Event's field order.
var header = []string{"policy", "event", "time_s", "job", "name", "class", "queue", "tasks", "gpu_milli", "node", "wait_s", "work_s", "cause", "preemptor", "lost_gpu_milli_s"}

// Writer writes events in one format. Call Flush at the end. Not safe for
// concurrent use.
type Writer struct {
	buf    *bufio.Writer
	csv    *csv.Writer
	json   *json.Encoder
	header bool
	row    []string
}

// NewWriter returns a Writer of format f on w.
func NewWriter(w io.Writer, f Format) *Writer {
	out := &Writer{buf: bufio.NewWriter(w)}
	if f == JSONLines {
		out.json = json.NewEncoder(out.buf)
	} else {
		out.csv = csv.NewWriter(out.buf)
		out.row = make([]string, len(header))
	}
	return out
}

// Write writes one event (the CSV header first, once).
func (w *Writer) Write(e Event) error {
	if w.json != nil {
		return w.json.Encode(e)
	}
	if !w.header {
		w.header = true
		if err := w.csv.Write(header); err != nil {
			return err
		}
	}
	r := w.row
	r[0], r[1], r[2], r[3] = e.Policy, string(e.Kind), strconv.FormatInt(e.Time, 10), strconv.Itoa(e.Job)
	r[4], r[5], r[6] = e.Name, e.Class, e.Queue
	r[7], r[8], r[9] = itoa(int64(e.Tasks)), itoa(e.GPUMilli), e.Node
	r[10], r[11], r[12], r[13] = itoa(e.Wait), itoa(e.Work), e.Cause, e.Preemptor
	r[14] = ""
	if e.LostMilliS != 0 {
		r[14] = strconv.FormatFloat(e.LostMilliS, 'f', -1, 64)
	}
	return w.csv.Write(r)
}

// itoa formats n, with 0 as the empty field.
func itoa(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// Flush writes out what is buffered (and the CSV header when no event was
// written) and returns the first error of any Write or of the flush.
func (w *Writer) Flush() error {
	if w.csv != nil {
		if !w.header {
			w.header = true
			w.csv.Write(header)
		}
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	}
	return w.buf.Flush()
}
