package alloc

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// CurveMax is the last arrived percentage of the paper's curve.
const CurveMax = 130

// Discretize returns the allocation curve of a run as the paper's
// analysis computes it: for x = 0..CurveMax, the mean allocated share of
// the GPU capacity (%, each point rounded to 2 decimals first) over the
// arrivals after which the arrived demand, as a percentage of capacity
// rounded half to even, is x; when no arrival rounds to x, over those
// rounding to x−1..x+1; NaN when there is none either. The mean is
// rounded to 2 decimals.
func Discretize(r Result) [CurveMax + 1]float64 {
	var sum [CurveMax + 2]float64
	var n [CurveMax + 2]int
	for _, p := range r.Points {
		x := math.RoundToEven(100 * float64(p.Arrived) / float64(r.CapacityMilli))
		if x < 0 || x > CurveMax+1 {
			continue
		}
		sum[int(x)] += round2(100 * float64(p.Used) / float64(r.CapacityMilli))
		n[int(x)]++
	}
	var out [CurveMax + 1]float64
	for x := range out {
		s, k := sum[x], n[x]
		if k == 0 {
			for _, y := range []int{x - 1, x + 1} {
				if y >= 0 {
					s, k = s+sum[y], k+n[y]
				}
			}
		}
		out[x] = math.NaN()
		if k > 0 {
			out[x] = round2(s / float64(k))
		}
	}
	return out
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Row is one run's curve in the paper's result-file shape.
type Row struct {
	Workload string
	Policy   Policy
	Tune     float64
	Seed     int64
	// TotalGPUs is the cluster's GPU capacity in GPUs.
	TotalGPUs float64
	Curve     [CurveMax + 1]float64
}

// CSVHeader is the header of the paper's result file: workload,
// sc_policy, tune, seed, total_gpus, then 0 … 130.
func CSVHeader() []string {
	h := []string{"workload", "sc_policy", "tune", "seed", "total_gpus"}
	for x := 0; x <= CurveMax; x++ {
		h = append(h, strconv.Itoa(x))
	}
	return h
}

// WriteCSV writes the header and one line per row (an empty cell where
// the curve has no value).
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Workload, r.Policy.PaperName(), strconv.FormatFloat(r.Tune, 'f', -1, 64),
			strconv.FormatInt(r.Seed, 10), strconv.FormatFloat(r.TotalGPUs, 'f', -1, 64)}
		for _, v := range r.Curve {
			cell := ""
			if !math.IsNaN(v) {
				cell = strconv.FormatFloat(v, 'f', 2, 64)
			}
			rec = append(rec, cell)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("alloc: %w", err)
		}
	}
	cw.Flush()
	return cw.Error()
}
