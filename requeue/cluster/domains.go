package cluster

import (
	"slices"

	"github.com/tenurepolicy/tenure/requeue"
)

// The Model offers the requeue engine's optional locality hint.
var _ requeue.Localizer = (*Model)(nil)

// domainsOnStack is the number of placed tasks up to which [Model.Domains]
// sorts the job's nodes in an array on its stack; a larger job uses the
// model's scratch slice.
const domainsOnStack = 32

// Domains implements [requeue.Localizer]: it appends to dst the nodes the
// running job's tasks occupy, each once, in node order, and returns dst
// (nothing for an unknown or pending job). A node is the domain because an
// eviction frees resources, and a placement takes them, only on its job's
// nodes. O(t log t) for t placed tasks; no allocation when dst has room.
func (c *Model) Domains(job string, dst []string) []string {
	if c == nil {
		return dst
	}
	ji, ok := c.jobIndex[job]
	if !ok || c.jobs[ji].placed == 0 {
		return dst
	}
	cj := &c.jobs[ji]
	if cj.placed <= domainsOnStack {
		var small [domainsOnStack]int32
		return c.appendDomains(dst, small[:0], cj.on)
	}
	c.scratch = slices.Grow(c.scratch[:0], cj.placed)
	return c.appendDomains(dst, c.scratch[:0], cj.on)
}

// appendDomains appends to dst the names of the distinct nodes of on (-1
// for a pending task), in node order, using buf (empty, with room for the
// placed tasks) to sort them. It does not keep buf.
func (c *Model) appendDomains(dst []string, buf []int32, on []int32) []string {
	for _, n := range on {
		if n >= 0 {
			buf = append(buf, n)
		}
	}
	slices.Sort(buf)
	for i, n := range buf {
		if i == 0 || n != buf[i-1] {
			dst = append(dst, c.nodes[n].name)
		}
	}
	return dst
}
