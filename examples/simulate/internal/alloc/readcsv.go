package alloc

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// ReadCSV reads curves in the paper's result-file shape (the header of
// CSVHeader, possibly with a leading index column as pandas writes it):
// one Row per line, an empty cell read as NaN. Rows whose sc_policy is
// none of the six are an error.
func ReadCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("alloc: reading the header: %w", err)
	}
	off := slices.Index(header, "workload")
	if off < 0 || !slices.Equal(header[off:], CSVHeader()) {
		return nil, fmt.Errorf("alloc: header %q is not the paper's (workload, sc_policy, tune, seed, total_gpus, 0 … %d)", header, CurveMax)
	}
	var rows []Row
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("alloc: %w", err)
		}
		row, err := parseRow(rec[off:])
		if err != nil {
			return nil, fmt.Errorf("alloc: line %d: %w", line, err)
		}
		rows = append(rows, row)
	}
}

// parseRow parses one record from its workload column on.
func parseRow(rec []string) (Row, error) {
	var row Row
	var ok bool
	if row.Policy, ok = ParsePaperName(rec[1]); !ok {
		return row, fmt.Errorf("sc_policy %q is not one of the six", rec[1])
	}
	row.Workload = rec[0]
	var err error
	if row.Tune, err = strconv.ParseFloat(rec[2], 64); err != nil {
		return row, fmt.Errorf("tune: %w", err)
	}
	if row.Seed, err = strconv.ParseInt(rec[3], 10, 64); err != nil {
		return row, fmt.Errorf("seed: %w", err)
	}
	if row.TotalGPUs, err = strconv.ParseFloat(rec[4], 64); err != nil {
		return row, fmt.Errorf("total_gpus: %w", err)
	}
	for x := range row.Curve {
		row.Curve[x] = math.NaN()
		if s := rec[5+x]; s != "" {
			if row.Curve[x], err = strconv.ParseFloat(s, 64); err != nil {
				return row, fmt.Errorf("column %d: %w", x, err)
			}
		}
	}
	return row, nil
}

// MeanAt returns, per policy, the mean over rows of the curve at x
// (NaN cells skipped) and how many rows had a value there.
func MeanAt(rows []Row, x int) (mean map[Policy]float64, n map[Policy]int) {
	mean, n = map[Policy]float64{}, map[Policy]int{}
	for _, r := range rows {
		if v := r.Curve[x]; !math.IsNaN(v) {
			mean[r.Policy] += v
			n[r.Policy]++
		}
	}
	for p := range mean {
		mean[p] /= float64(n[p])
	}
	return mean, n
}
