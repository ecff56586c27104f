package tenure

import (
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// Test-only views of a Policy's pieces, for the tests that check its
// wiring (which pieces an UpdateQueues rebuilds, which filter the engine
// holds). A Policy hands out no piece to its users.

func (p *Policy) Tree() *queuetree.Tree                { return p.tree }
func (p *Policy) Resolver() *runtime.Resolver          { return p.resolver }
func (p *Policy) Engine() *requeue.Engine              { return p.engine }
func (p *Policy) Filter() eligibility.MinRuntimeFilter { return p.filter }
func (p *Policy) Nominator() eligibility.Nominator     { return p.nominator }
