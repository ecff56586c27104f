// Package trace is the simulator's input: jobs and nodes as the simulator
// sees them ([Job], [Node], priority [Class]), the openb CSV parsers
// ([ParsePods], [ParseNodes]) and the seeded synthetic workload
// ([Synthesize]).
//
// A job's priority is its class's rank plus one when it is High
// ([Job.Priority]); [RankedApart] says which priorities never meet. The
// mapping of the trace's columns is described in the simulator's manual
// (go doc ./examples/simulate).
package trace
