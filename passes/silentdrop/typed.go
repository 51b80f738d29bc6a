package silentdrop

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/sendlint/sendlint/internal/chans"
)

// typedRecvs holds the package's receives on channels of the named channel
// types it declares, and the types some value of which is converted to
// another channel type.
type typedRecvs struct {
	recvs     map[*types.TypeName][]chans.Site
	converted map[*types.TypeName]bool
}

// typeReceives returns the receives of this package on channels of type t,
// when t is a named channel type the package declares and no value of it
// is converted to another channel type, and false otherwise.
//
// A channel that reaches a send through a parameter whose callers are out
// of sight can be any channel of the parameter's type. When that type is
// the package's own, its values are received from as that type, and every
// such receive is in sight, as it is for a field: a free list declared as
// a channel type, whose methods take from it and put back into it.
//
//	type FreeList chan []byte
//	func (b FreeList) Borrow() (buf []byte) {
//		select {
//		case buf = <-b:         // a receive on a FreeList
//		default:
//			buf = make([]byte, n)
//		}
//		return buf
//	}
//	func (b FreeList) Return(buf []byte) {
//		select {
//		case b <- buf:          // b: a parameter of type FreeList
//		default:
//		}
//	}
//
// A conversion (chan []byte(b), <-chan []byte(b)) would hand the channel
// to receives of another type, which are not counted: then nothing is
// known.
func (c *checker) typeReceives(t types.Type) ([]chans.Site, bool) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return nil, false
	}
	if _, isChan := named.Underlying().(*types.Chan); !isChan {
		return nil, false
	}
	if c.typed == nil {
		funcs := c.funcs
		if init := c.pkg.Func("init"); init != nil {
			funcs = append(funcs[:len(funcs):len(funcs)], init) // the initialisers of package variables
		}
		c.typed = collectTyped(funcs, c.pass.Pkg)
	}
	obj := named.Origin().Obj()
	if c.typed.converted[obj] {
		return nil, false
	}
	return c.typed.recvs[obj], true
}

// collectTyped indexes, once per package, the receives on values of the
// package's named channel types, and the conversions of such values:
//
//	t2 = <-t0                                // t0 FreeList
//	t3 = select nonblocking [<-t0] (...)     // state 0
//	t4 = changetype chan []byte <- FreeList (t0)
func collectTyped(funcs []*ssa.Function, pkg *types.Package) *typedRecvs {
	tr := &typedRecvs{recvs: map[*types.TypeName][]chans.Site{}, converted: map[*types.TypeName]bool{}}
	own := func(v ssa.Value) *types.TypeName {
		named, ok := types.Unalias(v.Type()).(*types.Named)
		if !ok || named.Obj().Pkg() != pkg {
			return nil
		}
		if _, isChan := named.Underlying().(*types.Chan); !isChan {
			return nil
		}
		return named.Origin().Obj()
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if obj := own(x.X); x.Op == token.ARROW && obj != nil {
						tr.recvs[obj] = append(tr.recvs[obj], chans.Site{Instr: x, State: -1, Func: fn})
					}
				case *ssa.Select:
					for i, st := range x.States {
						if obj := own(st.Chan); st.Dir == types.RecvOnly && obj != nil {
							tr.recvs[obj] = append(tr.recvs[obj], chans.Site{Instr: x, State: i, Func: fn})
						}
					}
				case *ssa.ChangeType:
					if obj := own(x.X); obj != nil && own(x) != obj {
						tr.converted[obj] = true
					}
				}
			}
		}
	}
	return tr
}
