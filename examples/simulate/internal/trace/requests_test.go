package trace

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestParseRequests(t *testing.T) {
	in := "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n" +
		"a,4000,100,1,500,\n" +
		"b,8000,200,2,1000,V100M16|V100M32\n" +
		"c,1000,10,0,0,\n"
	got, err := ParseRequests("t.csv", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].GPUMilli != 500 || got[1].GPUs != 2 || !slices.Equal(got[1].Models, []string{"V100M16", "V100M32"}) || got[2].GPUs != 0 {
		t.Errorf("ParseRequests = %+v", got)
	}
	for _, bad := range []string{
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1,1,2,500\n",           // sharing two GPUs
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\na,1,1,0,0,T4\n", // model without GPUs
		"name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,x,1,1,500\n",           // not a number
		"name,cpu_milli\na,1\n", // missing columns
	} {
		if _, err := ParseRequests("t.csv", strings.NewReader(bad)); err == nil || !strings.HasPrefix(err.Error(), "simulate: t.csv") {
			t.Errorf("ParseRequests(%q) error = %v", bad, err)
		}
	}
}

// The embedded trace reads whole: 8,152 pods, 6,086.8 GPUs asked.
func TestParseRequestsEmbedded(t *testing.T) {
	got, err := ParseRequests("pods.csv", bytes.NewReader(embeddedPods))
	if err != nil {
		t.Fatal(err)
	}
	var milli int64
	for _, q := range got {
		milli += int64(q.GPUs) * int64(q.GPUMilli)
	}
	if len(got) != 8152 || milli != 6086800 {
		t.Errorf("%d pods asking %d milli-GPUs, want 8152 and 6086800", len(got), milli)
	}
}

// FuzzParseRequests: any input gives pods or an error, never a panic;
// parsed pods are sane.
func FuzzParseRequests(f *testing.F) {
	f.Add([]byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\na,4000,100,1,500,\nb,1,1,2,1000,T4|P100\n"))
	f.Add([]byte("name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1,1,1,\n"))
	f.Add([]byte(""))
	f.Add(embeddedPods[:2000])
	f.Fuzz(func(t *testing.T, data []byte) {
		pods, err := ParseRequests("fuzz.csv", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "simulate: ") {
				t.Errorf("error without package prefix: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, q := range pods {
			if q.Name == "" || seen[q.Name] || q.CPU < 0 || q.Mem < 0 || q.GPUs < 0 || q.GPUs > maxGPUsPerTask ||
				(q.GPUs > 0) != (q.GPUMilli > 0) || q.GPUMilli > 1000 || (q.GPUs > 1 && q.GPUMilli < 1000) ||
				(len(q.Models) > 0 && q.GPUs == 0) || slices.Contains(q.Models, "") {
				t.Fatalf("invalid pod %+v", q)
			}
			seen[q.Name] = true
		}
	})
}
