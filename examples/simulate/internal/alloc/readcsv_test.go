package alloc

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
)

// What WriteCSV writes, ReadCSV reads back (NaN cells included).
func TestCSVRoundTrip(t *testing.T) {
	var c [CurveMax + 1]float64
	for x := range c {
		c[x] = float64(x) / 2
	}
	c[7] = math.NaN()
	in := []Row{{Workload: "w", Policy: FragGradient, Tune: 1.3, Seed: 42, TotalGPUs: 6212, Curve: c}}
	var b bytes.Buffer
	if err := WriteCSV(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Policy != FragGradient || out[0].Seed != 42 || out[0].Curve[130] != 65 || !math.IsNaN(out[0].Curve[7]) {
		t.Errorf("round trip: %+v", out)
	}
}

func FuzzReadCSV(f *testing.F) {
	var b bytes.Buffer
	_ = WriteCSV(&b, []Row{{Workload: "w", Policy: Random, Tune: 1.3, Seed: 1, TotalGPUs: 1}})
	f.Add(b.Bytes())
	if ref, err := os.ReadFile("../../../../../shared/reference/fgd-atc23/allocation_default.csv"); err == nil {
		f.Add(ref[:min(len(ref), 3000)])
	}
	f.Add([]byte("workload,sc_policy\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadCSV(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "alloc: ") {
				t.Errorf("error without package prefix: %v", err)
			}
			return
		}
		for _, r := range rows {
			if r.Policy < 0 || r.Policy >= numPolicies {
				t.Fatalf("bad policy in %+v", r)
			}
		}
	})
}
