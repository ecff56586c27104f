package tenure

import (
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/runtime"
)

// Test-only views of a Policy's pieces, for the tests that check its
// wiring (which pieces an UpdateQueues rebuilds, which filter the engine
// holds). A Policy hands out no piece to its users but its immutable tree.

func (p *Policy) Resolver() *runtime.Resolver          { return p.resolver }
func (p *Policy) Engine() *requeue.Engine              { return p.engine }
func (p *Policy) Filter() minruntime.Filter            { return p.filter }
func (p *Policy) Nominator() expectedruntime.Nominator { return p.nominator }
