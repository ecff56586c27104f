// Package cluster is the simulated cluster's resource state: what is free
// on each node ([NodeFree]: CPU, memory and the thousandths of each GPU not
// yet shared out), which tasks run where, and segment trees over the nodes
// that find the first node a task fits on ([State.FindFit]) and bound what
// evicting every task of a class or lower would free ([State.Freeable]).
//
// It knows nothing of policies or time: the event loop (package sim) takes
// and gives resources and asks where a task fits.
package cluster
