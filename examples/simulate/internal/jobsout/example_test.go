package jobsout_test

import (
	"os"

	"github.com/tenurepolicy/tenure/examples/simulate/internal/jobsout"
)

func ExampleWriter() {
	f, _ := jobsout.FormatFor("jobs.csv", "")
	w := jobsout.NewWriter(os.Stdout, f)
	w.Write(jobsout.Event{Policy: "priority", Kind: jobsout.Arrive, Time: 0, Job: 3, Class: "ls", Queue: "ls-a", Tasks: 1, GPUMilli: 500, Work: 120})
	w.Write(jobsout.Event{Policy: "priority", Kind: jobsout.Start, Time: 30, Job: 3, Tasks: 1, GPUMilli: 500, Node: "n1", Wait: 30})
	w.Write(jobsout.Event{Policy: "priority", Kind: jobsout.Finish, Time: 150, Job: 3, Node: "n1", Work: 120})
	w.Flush()
	// Output:
	// policy,event,time_s,job,name,class,queue,tasks,gpu_milli,node,wait_s,work_s,cause,preemptor,lost_gpu_milli_s
	// priority,arrive,0,3,,ls,ls-a,1,500,,,120,,,
	// priority,start,30,3,,,,1,500,n1,30,,,,
	// priority,finish,150,3,,,,,,n1,,120,,,
}
