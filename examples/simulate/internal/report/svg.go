package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// palette holds distinguishable line colours for the SVG plot.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// RenderSVG draws three stacked panels from the window's start to the
// horizon (the last arrival is marked): GPU utilisation (%), pending jobs
// and stranded GPUs (free, but usable by no waiting task on any single
// node), one line per policy. Hand-written SVG, no dependencies.
func RenderSVG(r *Report) string {
	height := plotTop + 3*plotPanelH + 2*plotGap + 70
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", plotWidth, height, plotWidth, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="20" font-size="14">%s</text>`+"\n", plotLeft, xmlEscape("tenure what-if simulator — "+r.Source))

	span := float64(max(r.Workload.Horizon-r.Workload.WindowStart, 1))
	lastArrival := float64(r.Workload.WindowEnd-r.Workload.WindowStart) / span
	maxPend, maxStranded := 1.0, 1.0
	for _, res := range r.Results {
		for _, p := range res.PendingSeries {
			maxPend = math.Max(maxPend, p)
		}
		for _, g := range res.Fragmentation.StrandedSeries {
			maxStranded = math.Max(maxStranded, g)
		}
	}
	panels := []svgPanel{
		{"GPU utilisation (%): allocated (solid), useful (dashed: work not later lost)", plotTop, 100,
			func(res Result) []float64 { return percent(res.UtilSeries) }, func(res Result) []float64 { return percent(res.UsefulSeries) }},
		{"jobs waiting", plotTop + plotPanelH + plotGap, niceCeil(maxPend), func(res Result) []float64 { return res.PendingSeries }, nil},
		{"stranded GPUs: free, but usable by no waiting task on any single node", plotTop + 2*(plotPanelH+plotGap), niceCeil(maxStranded),
			func(res Result) []float64 { return res.Fragmentation.StrandedSeries }, nil},
	}
	for _, p := range panels {
		p.drawFrame(&b, lastArrival, span)
		for i, res := range r.Results {
			p.drawLine(&b, p.series(res), i, "")
			if p.dashed != nil {
				p.drawLine(&b, p.dashed(res), i, ` stroke-dasharray="5 3"`)
			}
		}
	}
	drawLegend(&b, r.Results, plotTop+3*plotPanelH+2*plotGap+44)
	b.WriteString("</svg>\n")
	return b.String()
}

// The run plot's layout, in pixels.
const (
	plotWidth, plotLeft, plotRight = 960.0, 70.0, 20.0
	plotPanelH, plotTop, plotGap   = 240.0, 40.0, 70.0
	plotW                          = plotWidth - plotLeft - plotRight
)

// svgPanel is one panel of the run plot: a title, its top, the y scale's
// maximum, and the series drawn per policy (dashed: a second line per
// policy, or nil).
type svgPanel struct {
	title          string
	y0, ymax       float64
	series, dashed func(Result) []float64
}

// drawFrame draws the panel's title, frame, y grid, the last arrival's
// marker (at fraction lastArrival of the time axis) and the time axis
// (span seconds).
func (p svgPanel) drawFrame(b *strings.Builder, lastArrival, span float64) {
	left := plotLeft
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-weight="bold">%s</text>`+"\n", left, p.y0+14, xmlEscape(p.title))
	y0, y1 := p.y0+24, p.y0+plotPanelH
	fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`+"\n", left, y0, plotW, y1-y0)
	for k := 0; k <= 4; k++ {
		v := p.ymax * float64(k) / 4
		y := y1 - (y1-y0)*float64(k)/4
		fmt.Fprintf(b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`+"\n", left, y, left+plotW, y)
		fmt.Fprintf(b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, strconv.FormatFloat(v, 'f', -1, 64))
	}
	if lastArrival > 0 && lastArrival < 1 {
		x := left + plotW*lastArrival
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#888" stroke-dasharray="4 3"/>`+"\n", x, y0, x, y1)
		// Above the frame, where no series can hide it.
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#666">last arrival</text>`+"\n", x, y0-5)
	}
	for k := 0; k <= 6; k++ {
		x := left + plotW*float64(k)/6
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x, y1+16, fmtDur(span*float64(k)/6))
	}
}

// drawLine draws one series of policy i (its colour) across the panel.
func (p svgPanel) drawLine(b *strings.Builder, vals []float64, i int, extra string) {
	if len(vals) == 0 {
		return
	}
	y0, y1 := p.y0+24, p.y0+plotPanelH
	var pts strings.Builder
	for k, v := range vals {
		x := plotLeft + plotW*(float64(k)+0.5)/float64(len(vals))
		y := y1 - (y1-y0)*math.Min(v/p.ymax, 1)
		fmt.Fprintf(&pts, "%.1f,%.1f ", x, y)
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="1.5"%s points="%s"/>`+"\n", palette[i%len(palette)], extra, strings.TrimSpace(pts.String()))
}

// drawLegend draws the time axis's label and a colour per policy at ly.
func drawLegend(b *strings.Builder, results []Result, ly float64) {
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f">time since window start →</text>`+"\n", plotLeft, ly-10)
	x := plotLeft
	for i, res := range results {
		fmt.Fprintf(b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="3"/>`, x, ly+10, x+24, ly+10, palette[i%len(palette)])
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", x+30, ly+14, xmlEscape(res.Policy))
		x += 40 + 8*float64(len(res.Policy))
	}
}

// percent scales fractions to percentages.
func percent(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = 100 * x
	}
	return out
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
