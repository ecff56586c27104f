package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/longtest"
)

// defaultReportMarker precedes the fenced block holding the default run's
// report in the simulator README.
const defaultReportMarker = "<!-- default report:"

var defaultReport = sync.OnceValues(func() (string, error) {
	var out, errOut bytes.Buffer
	err := run(nil, &out, &errOut)
	return out.String(), err
})

// TestREADMEReports fails when a README's copy of the default report is
// not what `go run ./examples/simulate` prints now: every README figure
// that quotes the report must be regenerated with the code that made it.
// The default run replays the whole trace under every policy: a long test.
func TestREADMEReports(t *testing.T) {
	longtest.Skip(t)
	want, err := defaultReport()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"README.md"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		readme := string(data)
		k := strings.Index(readme, defaultReportMarker)
		if k < 0 {
			t.Errorf("%s: no %q marker before the default report", path, defaultReportMarker)
			continue
		}
		got, ok := fencedBlock(readme[k:])
		if !ok {
			t.Errorf("%s: the marker is not followed by a fenced block", path)
			continue
		}
		if got != want {
			t.Errorf("%s: the default report differs from the default run's (-README +run):\n%s", path, cmp.Diff(got, want))
		}
	}
}

// fencedBlock returns the content of the first fenced block of s, with its
// final newline.
func fencedBlock(s string) (string, bool) {
	i := strings.Index(s, "\n```")
	if i < 0 {
		return "", false
	}
	s = s[i+4:]
	s = s[strings.Index(s, "\n")+1:] // skip the info string
	j := strings.Index(s, "\n```")
	if j < 0 {
		return "", false
	}
	return s[:j+1], true
}

// figuresMarker names the run a README passage quotes and the figures it
// quotes from it: <!-- check: ARGS :: FIGURE FIGURE ... -->. A figure is
// written with its unit as the passage writes it (25m, 46%, 1.3d); where
// the output prints it in a column named by its unit, the marker says both,
// PROSE=OUTPUT (11.7h=11.7 for an "h" column).
var figuresMarker = regexp.MustCompile(`<!-- check: (.*?) :: (.*?) -->`)

// TestREADMEFigures fails when a figure a README passage quotes no longer
// appears in the output of the run the passage cites, or no longer in the
// passage itself (the list and the prose must agree). A passage is the
// text between the previous marker or heading and its marker. Figures are
// matched whole (1.2 does not match 11.2 or 1.25); the prose may write
// thousands with commas, the output does not. The runs (dozens of whole
// simulations, minutes) are a long test; by default only the passages are
// checked against their lists.
func TestREADMEFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	runs := longtest.Enabled()
	if runs && raceEnabled {
		// Dozens of whole simulations: minutes under the race detector,
		// which finds nothing here that the other tests do not exercise.
		// CI runs this test in its pass without -race.
		t.Skip("runs the simulator dozens of times; run without -race")
	}
	outputs := map[string]string{}
	for _, path := range []string{"README.md", "../../README.md"} {
		checkFigures(t, path, outputs, runs)
	}
	if !runs {
		t.Log("checked the figures against their passages only; " + longtest.Env + "=1 also runs the commands they cite")
	}
}

// checkFigures checks the figure markers of the README at path against
// their passages and, when runs is true, against the output of the
// command each cites, running each once (outputs caches them across
// READMEs).
func checkFigures(t *testing.T, path string, outputs map[string]string, runs bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	prev := 0
	for _, m := range figuresMarker.FindAllStringSubmatchIndex(readme, -1) {
		passage := readme[prev:m[0]]
		if h := strings.LastIndex(passage, "\n#"); h >= 0 {
			passage = passage[h:]
		}
		prev = m[1]
		args, figs := readme[m[2]:m[3]], strings.Fields(readme[m[4]:m[5]])
		for _, f := range figs {
			f, _, _ = strings.Cut(f, "=")
			if !hasFigure(passage, f) {
				t.Errorf("%s: figure %s is listed for %q but not in its passage:\n%s", path, f, args, passage)
			}
		}
		if !runs {
			continue
		}
		out, ok := outputs[args]
		if !ok {
			var b, errOut bytes.Buffer
			if err := run(strings.Fields(args), &b, &errOut); err != nil {
				t.Errorf("%s: run %q: %v", path, args, err)
				continue
			}
			out, outputs[args] = b.String(), b.String()
		}
		for _, f := range figs {
			if _, o, ok := strings.Cut(f, "="); ok {
				f = o
			}
			if !hasFigure(out, strings.ReplaceAll(f, ",", "")) {
				t.Errorf("%s: figure %s is not in the output of %q", path, f, args)
			}
		}
	}
}

// hasFigure reports whether s holds f as a whole figure, with its unit:
// a figure is matched with the unit written right after it or with none,
// so "19m" is not in "19s", nor "19" in "19m" (a passage that writes 19m
// must list 19m, and the output must print 19m).
func hasFigure(s, f string) bool {
	re := regexp.MustCompile(`(^|[^0-9.,])` + regexp.QuoteMeta(f) + `($|[^0-9,.A-Za-z%]|[.,][^0-9]|[.,]$)`)
	return re.MatchString(s)
}

func TestHasFigure(t *testing.T) {
	for _, tc := range []struct {
		s, f string
		want bool
	}{{"a 1.2 b", "1.2", true}, {"11.2", "1.2", false}, {"1.25", "1.2", false}, {"(1.2%)", "1.2%", true}, {"1,157 x", "1,157", true}, {"≥2.4d", "2.4d", true}, {"0.40)", "0.40", true}, {"1.2.", "1.2", true},
		{"19s", "19", false}, {"19s", "19m", false}, {"19m,", "19m", true}, {"25ms", "25m", false}, {"(46%)", "46%", true}, {"46%", "46", false}, {"≥2.0d)", "2.0d", true}, {"2.0d", "2.0", false}, {"5-8 GPUs", "5", true}} {
		if got := hasFigure(tc.s, tc.f); got != tc.want {
			t.Errorf("hasFigure(%q, %q) = %v", tc.s, tc.f, got)
		}
	}
}
