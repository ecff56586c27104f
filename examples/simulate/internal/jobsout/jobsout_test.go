package jobsout

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

var sample = []Event{
	{Policy: "priority", Kind: Arrive, Time: 0, Job: 0, Name: `odd,"name"`, Class: "be", Queue: "be-a", Tasks: 1, GPUMilli: 8000, Work: 3600},
	{Kind: Start, Time: 60, Job: 0, Tasks: 1, GPUMilli: 8000, Node: "n7", Wait: 60},
	{Kind: Evict, Time: 960, Job: 0, Node: "n7", Work: 900, Cause: "preempt", Preemptor: "job-9", LostMilliS: 7.2e6},
	{Kind: Start, Time: 1000, Job: 0, Tasks: 1, GPUMilli: 8000, Node: "n2", Wait: 40},
	{Kind: Finish, Time: 4600, Job: 0, Node: "n2", Work: 3600},
	{Kind: Waiting, Time: 5000, Job: 1, Wait: 4000},
}

func TestCSVGolden(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, CSV)
	for _, e := range sample[:3] {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "policy,event,time_s,job,name,class,queue,tasks,gpu_milli,node,wait_s,work_s,cause,preemptor,lost_gpu_milli_s\n" +
		"priority,arrive,0,0,\"odd,\"\"name\"\"\",be,be-a,1,8000,,,3600,,,\n" +
		",start,60,0,,,,1,8000,n7,60,,,,\n" +
		",evict,960,0,,,,,,n7,,900,preempt,job-9,7200000\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
}

func TestJSONLinesGolden(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, JSONLines)
	w.Write(sample[2])
	w.Write(sample[5])
	w.Flush()
	want := `{"event":"evict","time_s":960,"job":0,"node":"n7","work_s":900,"cause":"preempt","preemptor":"job-9","lost_gpu_milli_s":7200000}` + "\n" +
		`{"event":"waiting","time_s":5000,"job":1,"wait_s":4000}` + "\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("JSON Lines (-want +got):\n%s", diff)
	}
}

func TestEmptyCSVHasHeader(t *testing.T) {
	var b bytes.Buffer
	NewWriter(&b, CSV).Flush()
	if evs, err := Read(&b, CSV); err != nil || len(evs) != 0 {
		t.Errorf("empty export: %v %v", evs, err)
	}
}

func genEvent(t *rapid.T) Event {
	kinds := []Kind{Arrive, Start, Evict, Finish, Waiting, Running}
	return Event{
		Policy: rapid.String().Draw(t, "policy"),
		Kind:   rapid.SampledFrom(kinds).Draw(t, "kind"), Time: rapid.Int64Range(0, 1e9).Draw(t, "time"),
		Job: rapid.IntRange(0, 1e6).Draw(t, "job"), Name: rapid.String().Draw(t, "name"),
		Class: rapid.StringMatching(`[a-z]{0,5}`).Draw(t, "class"), Queue: rapid.String().Draw(t, "queue"),
		Tasks: rapid.Int32Range(0, 64).Draw(t, "tasks"), GPUMilli: rapid.Int64Range(0, 64000).Draw(t, "gpu"),
		Node: rapid.String().Draw(t, "node"), Wait: rapid.Int64Range(0, 1e8).Draw(t, "wait"),
		Work: rapid.Int64Range(0, 1e8).Draw(t, "work"), Cause: rapid.String().Draw(t, "cause"),
		Preemptor: rapid.String().Draw(t, "pre"), LostMilliS: float64(rapid.Int64Range(0, 1e12).Draw(t, "lost")) / 8,
	}
}

func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		evs := rapid.SliceOfN(rapid.Custom(genEvent), 0, 8).Draw(t, "events")
		for _, f := range []Format{CSV, JSONLines} {
			var b bytes.Buffer
			w := NewWriter(&b, f)
			for _, e := range evs {
				if err := w.Write(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			got, err := Read(&b, f)
			if err != nil {
				t.Fatalf("%v: %v", f, err)
			}
			// CSV normalizes \r\n inside quoted fields; compare what it keeps.
			want := evs
			if f == CSV {
				want = nil
				for _, e := range evs {
					for _, s := range []*string{&e.Policy, &e.Name, &e.Queue, &e.Node, &e.Cause, &e.Preemptor} {
						*s = strings.ReplaceAll(*s, "\r\n", "\n")
					}
					want = append(want, e)
				}
			}
			if len(want) == 0 {
				want = nil
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%v round trip (-want +got):\n%s", f, diff)
			}
		}
	})
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		f        Format
		want     string
	}{
		{"empty csv", "", CSV, "no header"},
		{"bad header", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n", CSV, "line 1: header"},
		{"bad kind", strings.Join(header, ",") + "\np,explode,1,0,,,,,,,,,,,\n", CSV, `line 2: unknown event "explode"`},
		{"bad number", strings.Join(header, ",") + "\np,start,x,0,,,,,,,,,,,\n", CSV, "line 2: time_s"},
		{"short row", strings.Join(header, ",") + "\nstart,1\n", CSV, "wrong number of fields"},
		{"bad json", "{\"event\":\"start\"}\n{oops}\n", JSONLines, "line 2"},
		{"unknown field", `{"event":"start","colour":1}`, JSONLines, "line 1"},
		{"two objects", `{"event":"start"} {"event":"start"}`, JSONLines, "more than one"},
	} {
		_, err := Read(strings.NewReader(tc.in), tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "jobsout: ") {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestFormatFor(t *testing.T) {
	for _, tc := range []struct {
		path, flag string
		want       Format
		ok         bool
	}{
		{"jobs.csv", "", CSV, true}, {"dir.x/jobs.jsonl", "", JSONLines, true}, {"j.ndjson", "", JSONLines, true},
		{"j.json", "", JSONLines, true}, {"jobs.txt", "csv", CSV, true}, {"jobs.csv", "jsonl", JSONLines, true},
		{"jobs", "", CSV, false}, {"dir.csv/jobs", "", CSV, false}, {"jobs.txt", "", CSV, false}, {"j.csv", "xml", CSV, false},
	} {
		got, err := FormatFor(tc.path, tc.flag)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("FormatFor(%q, %q) = %v %v", tc.path, tc.flag, got, err)
		}
	}
}

func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	w := NewWriter(&b, CSV)
	for _, e := range sample {
		w.Write(e)
	}
	w.Flush()
	f.Add(b.Bytes(), false)
	f.Add([]byte(`{"event":"finish","time_s":3,"job":1}`), true)
	f.Fuzz(func(t *testing.T, in []byte, jsonl bool) {
		fm := CSV
		if jsonl {
			fm = JSONLines
		}
		evs, err := Read(bytes.NewReader(in), fm)
		if err != nil {
			return
		}
		for _, e := range evs {
			if !validKind(e.Kind) {
				t.Fatalf("accepted unknown kind %q", e.Kind)
			}
		}
	})
}
