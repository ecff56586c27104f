package alloc

import (
	"fmt"
	"math"
	"strings"
)

// RenderSVG draws the mean allocation curve of each policy in ours
// (solid) beside the paper's (dashed), arrived demand 0-130% on x and
// allocated GPUs on y, zoomed on the part where the policies part.
func RenderSVG(title string, ours, paper []Row) string {
	const w, h, left, right, top, bottom = 760, 460, 60, 170, 40, 50
	const xMin, xMax, yMin, yMax = 60.0, 130.0, 60.0, 100.0
	px := func(x float64) float64 { return left + (x-xMin)/(xMax-xMin)*(w-left-right) }
	py := func(y float64) float64 { return top + (yMax-y)/(yMax-yMin)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/><text x="%d" y="22" font-size="14">%s</text>`+"\n", w, h, left, escape(title))
	for y := yMin; y <= yMax; y += 10 {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", px(xMin), px(xMax), py(y), py(y), left-6, py(y)+4, y)
	}
	for x := xMin; x <= xMax; x += 10 {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%.0f%%</text>`+"\n", px(x), h-bottom+18, x)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">arrived GPU demand (%% of capacity)</text>`+"\n", px((xMin+xMax)/2), h-12)
	colors := []string{"#7f7f7f", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#d62728"}
	for _, p := range Policies() {
		c := colors[p]
		for k, set := range [][]Row{ours, paper} {
			dash := ""
			if k == 1 {
				dash = ` stroke-dasharray="5,4"`
			}
			if pts := meanCurve(set, p, xMin, px, py); pts != "" {
				fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.6"%s points="%s"/>`+"\n", c, dash, pts)
			}
		}
		ly := top + 16*float64(p)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/><text x="%d" y="%.1f">%s</text>`+"\n", w-right+10, w-right+30, ly, ly, c, w-right+36, ly+4, p)
	}
	ly := top + 16*float64(numPolicies) + 8
	fmt.Fprintf(&b, `<text x="%d" y="%.1f">solid: ours</text><text x="%d" y="%.1f">dashed: the paper</text>`+"\n", w-right+10, ly, w-right+10, ly+16)
	b.WriteString("</svg>\n")
	return b.String()
}

// meanCurve is the polyline of p's mean curve in rows from xFrom on.
func meanCurve(rows []Row, p Policy, xFrom float64, px, py func(float64) float64) string {
	var pts []string
	for x := int(xFrom); x <= CurveMax; x++ {
		var s float64
		n := 0
		for _, r := range rows {
			if r.Policy == p && !math.IsNaN(r.Curve[x]) {
				s += r.Curve[x]
				n++
			}
		}
		if n > 0 {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(float64(x)), py(s/float64(n))))
		}
	}
	return strings.Join(pts, " ")
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
