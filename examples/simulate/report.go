package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Report is everything one run prints: the input, the workload after the
// load knobs, and one Result per policy in the order they were requested.
type Report struct {
	Source   string   `json:"source"`
	Workload Summary  `json:"workload"`
	Results  []Result `json:"results"`
}

// fmtDur renders seconds compactly: 0s, 45s, 12m, 3.5h, 2.1d. The unit is
// chosen after rounding, so 3590 s is 1.0h, not 60m.
func fmtDur(sec float64) string {
	if s := math.Round(sec); s < 60 {
		return strconv.FormatFloat(s, 'f', 0, 64) + "s"
	}
	if m := math.Round(sec / 60); m < 60 {
		return strconv.FormatFloat(m, 'f', 0, 64) + "m"
	}
	if h := math.Round(sec/360) / 10; h < 24 {
		return strconv.FormatFloat(h, 'f', 1, 64) + "h"
	}
	return strconv.FormatFloat(sec/86400, 'f', 1, 64) + "d"
}

// writeTable prints the report as aligned text tables.
func writeTable(w io.Writer, r *Report) error {
	s := r.Workload
	var b strings.Builder
	fmt.Fprintf(&b, "tenure what-if simulator — %s\n", r.Source)
	fmt.Fprintf(&b, "workload: %d jobs", s.Jobs)
	if s.Unschedulable > 0 {
		fmt.Fprintf(&b, " (%d dropped: fit no node)", s.Unschedulable)
	}
	fmt.Fprintf(&b, " on %d nodes / %d GPUs", s.Nodes, s.GPUs)
	if s.NodeStride > 1 {
		fmt.Fprintf(&b, " (one node in %d)", s.NodeStride)
	}
	if s.Speedup != 1 {
		fmt.Fprintf(&b, ", arrivals sped up ×%g", s.Speedup)
	}
	fmt.Fprintf(&b, "; cycle every %s; stop %s after the last arrival", s.Interval, s.Tail)
	if s.Checkpoint != "" {
		fmt.Fprintf(&b, "; checkpoints every %s of work", s.Checkpoint)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "window: %s from t=%ds; offered GPU load %.2f\n", fmtDur(float64(s.WindowEnd-s.WindowStart)), s.WindowStart, s.OfferedLoad)
	fmt.Fprintf(&b, "queues: %s\n", s.Queues)
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tGPU util\tevictions\tthrash\tlost GPU-h\tJain\tdone\tunfinished\tcycles\t")
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%s\t%.1f%%\t%d\t%d\t%.1f\t%.3f\t%d\t%d\t%d\t\n", res.Policy, 100*res.GPUUtilisation,
			res.Evictions, res.Thrash, res.LostGPUHours, res.Jain, res.Completed, res.Unfinished, res.Cycles)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Results) > 0 {
		fmt.Fprintln(w, "\nwait p50 / p95 / p99 by class")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "policy\t")
		for _, cw := range r.Results[0].Wait {
			fmt.Fprintf(tw, "%s (%d jobs)\t", cw.Class, cw.Jobs)
		}
		fmt.Fprintln(tw)
		for _, res := range r.Results {
			fmt.Fprintf(tw, "%s\t", res.Policy)
			for _, cw := range res.Wait {
				fmt.Fprintf(tw, "%s / %s / %s\t", fmtDur(cw.P50), fmtDur(cw.P95), fmtDur(cw.P99))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	failed := false
	for _, res := range r.Results {
		failed = failed || res.FailedStarts > 0
	}
	if failed {
		fmt.Fprintln(w, "\nfailed starts (held GPU for the readiness timeout, then evicted)")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "policy\tfailed starts\tGPU-h held\tgiven up\t")
		for _, res := range r.Results {
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t\n", res.Policy, res.FailedStarts, res.FailedStartGPUHours, res.Deactivated)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, res := range r.Results {
		for _, n := range res.Notes {
			fmt.Fprintf(w, "note (%s): %s\n", res.Policy, n)
		}
	}
	return nil
}

// palette holds distinguishable line colours for the SVG plot.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// renderSVG draws two stacked panels from the window's start to the
// horizon (the last arrival is marked): GPU utilisation (%) and pending
// jobs, one line per policy. Hand-written SVG, no dependencies.
func renderSVG(r *Report) string {
	const (
		width, left, right = 960.0, 70.0, 20.0
		panelH, top, gap   = 240.0, 40.0, 70.0
	)
	plotW := width - left - right
	height := top + 2*panelH + gap + 70
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", left, xmlEscape("tenure what-if simulator — "+r.Source))

	span := float64(max(r.Workload.Horizon-r.Workload.WindowStart, 1))
	lastArrival := float64(r.Workload.WindowEnd-r.Workload.WindowStart) / span
	maxPend := 1.0
	for _, res := range r.Results {
		for _, p := range res.PendingSeries {
			maxPend = math.Max(maxPend, p)
		}
	}
	maxPend = niceCeil(maxPend)
	panels := []struct {
		title  string
		y0     float64
		ymax   float64
		unit   string
		series func(Result) []float64
	}{
		{"GPU utilisation (%)", top, 100, "%", func(res Result) []float64 {
			out := make([]float64, len(res.UtilSeries))
			for i, u := range res.UtilSeries {
				out[i] = 100 * u
			}
			return out
		}},
		{"pending jobs", top + panelH + gap, maxPend, "", func(res Result) []float64 { return res.PendingSeries }},
	}
	for _, p := range panels {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-weight="bold">%s</text>`+"\n", left, p.y0+14, xmlEscape(p.title))
		y0, y1 := p.y0+24, p.y0+panelH
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left, y0, plotW, y1-y0)
		for k := 0; k <= 4; k++ {
			v := p.ymax * float64(k) / 4
			y := y1 - (y1-y0)*float64(k)/4
			fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", left, y, left+plotW, y)
			fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, strconv.FormatFloat(v, 'f', -1, 64))
		}
		if lastArrival > 0 && lastArrival < 1 {
			x := left + plotW*lastArrival
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#888" stroke-dasharray="4 3"/>`+"\n", x, y0, x, y1)
			// Above the frame, where no series can hide it.
			fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#666">last arrival</text>`+"\n", x, y0-5)
		}
		for k := 0; k <= 6; k++ {
			x := left + plotW*float64(k)/6
			fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x, y1+16, fmtDur(span*float64(k)/6))
		}
		for i, res := range r.Results {
			vals := p.series(res)
			if len(vals) == 0 {
				continue
			}
			var pts strings.Builder
			for k, v := range vals {
				x := left + plotW*(float64(k)+0.5)/float64(len(vals))
				y := y1 - (y1-y0)*math.Min(v/p.ymax, 1)
				fmt.Fprintf(&pts, "%.1f,%.1f ", x, y)
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", palette[i%len(palette)], strings.TrimSpace(pts.String()))
		}
	}
	ly := top + 2*panelH + gap + 44
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">time since window start →</text>`+"\n", left, ly-10)
	x := left
	for i, res := range r.Results {
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="3"/>`, x, ly+10, x+24, ly+10, palette[i%len(palette)])
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", x+30, ly+14, xmlEscape(res.Policy))
		x += 40 + 8*float64(len(res.Policy))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func xmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
