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

// Domains implements the requeue engine's locality hint: it appends to dst
// the names of the nodes the running job's tasks occupy, each once, in
// the order the nodes were given to [New], and returns dst. It appends
// nothing for an unknown or pending job (or a nil Model).
//
// A node is the cluster's domain because an eviction frees resources only
// on the nodes of the evicted job's tasks, and a placement takes them only
// on the nodes its tasks land on: whether a contender fits on some nodes
// depends only on what is free there, so evicting a job whose nodes the
// contender does not land on cannot be what let it fit. The cluster-wide
// free total [Model.Place] also consults is a bound any fitting placement
// meets, not a resource of its own, so it needs no domain.
//
// Domains does not change the model's state; for a given state it returns
// the same names. O(t log t) for a job with t placed tasks; it allocates
// nothing when dst has room for the names (beyond [domainsOnStack] placed
// tasks, once the model's scratch space has grown to the job's size).
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
