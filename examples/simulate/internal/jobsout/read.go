package jobsout

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// Read parses an export of format f back into events (for tests and for
// tools that recompute metrics). Every malformed line is an error naming
// its line number. Cost O(input).
func Read(r io.Reader, f Format) ([]Event, error) {
	if f == JSONLines {
		return readJSON(r)
	}
	return readCSV(r)
}

func readJSON(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var out []Event
	for line := 1; sc.Scan(); line++ {
		var e Event
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("jobsout: line %d: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("jobsout: line %d: more than one object", line)
		}
		if !validKind(e.Kind) {
			return nil, fmt.Errorf("jobsout: line %d: unknown event %q", line, e.Kind)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("jobsout: %w", err)
	}
	return out, nil
}

func readCSV(r io.Reader) ([]Event, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(header)
	first, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("jobsout: empty input (no header)")
	}
	if err != nil {
		return nil, fmt.Errorf("jobsout: %w", err)
	}
	if !slices.Equal(first, header) {
		return nil, fmt.Errorf("jobsout: line 1: header %q, want %q", first, header)
	}
	var out []Event
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("jobsout: %w", err)
		}
		e, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("jobsout: line %d: %w", line, err)
		}
		out = append(out, e)
	}
}

// parseRow parses one CSV record (in header order).
func parseRow(r []string) (Event, error) {
	e := Event{Policy: r[0], Kind: Kind(r[1]), Name: r[4], Class: r[5], Queue: r[6], Node: r[9], Cause: r[12], Preemptor: r[13]}
	if !validKind(e.Kind) {
		return e, fmt.Errorf("unknown event %q", r[1])
	}
	var errs []error
	num := func(s, name string) int64 {
		if s == "" {
			return 0
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
		return n
	}
	e.Time, e.Job = num(r[2], "time_s"), int(num(r[3], "job"))
	tasks := num(r[7], "tasks")
	if tasks != int64(int32(tasks)) {
		errs = append(errs, fmt.Errorf("tasks: %d out of range", tasks))
	}
	e.Tasks = int32(tasks)
	e.GPUMilli, e.Wait, e.Work = num(r[8], "gpu_milli"), num(r[10], "wait_s"), num(r[11], "work_s")
	if r[14] != "" {
		v, err := strconv.ParseFloat(r[14], 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("lost_gpu_milli_s: %w", err))
		}
		e.LostMilliS = v
	}
	return e, errors.Join(errs...)
}
