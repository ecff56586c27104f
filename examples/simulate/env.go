package main

import (
	"fmt"
	"strings"
)

// env is what every policy of one run shares: the queue layout and the
// min-runtime configuration used to measure thrash.
type env struct {
	jobs  []Job
	teams int
	// minRT is the min-runtime per class (seconds), used for the thrash metric.
	minRT [numClasses]int64
}

// leaf returns the dense index of j's team queue: class × teams + team.
func (e *env) leaf(j *Job) int32 { return int32(int(j.Class)*e.teams + j.Team) }

// teamName returns the name of team queue t of class c, e.g. "ls-a".
func teamName(c Class, t int) string {
	return fmt.Sprintf("%s-%s", c.queueName(), teamSuffix(t))
}

// teamSuffix names teams a, b, ..., z, t26, t27, ...
func teamSuffix(t int) string {
	if t < 26 {
		return string(rune('a' + t))
	}
	return fmt.Sprintf("t%d", t)
}

// minRuntime returns the min-runtime that applies when job by (or -1 for
// "no particular preemptor") evicts victim.
func (e *env) minRuntime(by, victim int32) int64 {
	return e.minRT[e.jobs[victim].Class]
}

// queueListing renders the queue tree for the report header.
func (e *env) queueListing() string {
	var b strings.Builder
	for c := Class(numClasses - 1); ; c-- {
		fmt.Fprintf(&b, "%s{", c.queueName())
		for t := range e.teams {
			if t > 0 {
				b.WriteString(",")
			}
			b.WriteString(teamName(c, t))
		}
		b.WriteString("}")
		if c == 0 {
			break
		}
		b.WriteString(" ")
	}
	return b.String()
}
