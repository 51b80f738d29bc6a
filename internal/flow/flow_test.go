package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// build compiles src and returns its SSA function named name.
func build(t *testing.T, src, name string) *ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := pkg.Func(name)
	if fn == nil {
		t.Fatalf("no function %s", name)
	}
	return fn
}

// sends weighs each send instruction of fn one.
func sends(fn *ssa.Function) map[ssa.Instruction]int {
	out := map[ssa.Instruction]int{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Send); ok {
				out[s] = 1
			}
		}
	}
	return out
}

func recvs(fn *ssa.Function) map[ssa.Instruction]bool {
	out := map[ssa.Instruction]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW {
				out[u] = true
			}
		}
	}
	return out
}

// caseEdges weighs one each edge into the body of a select's case that
// receives from fn's first parameter.
func caseEdges(fn *ssa.Function) map[Edge]int {
	out := map[Edge]int{}
	for _, b := range fn.Blocks {
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		eq, ok := br.Cond.(*ssa.BinOp)
		if !ok || eq.Op != token.EQL {
			continue
		}
		idx, ok := eq.X.(*ssa.Extract)
		k, isConst := eq.Y.(*ssa.Const)
		if !ok || !isConst || idx.Index != 0 {
			continue
		}
		sel, ok := idx.Tuple.(*ssa.Select)
		if !ok {
			continue
		}
		if st := sel.States[k.Int64()]; st.Dir == types.RecvOnly && st.Chan == fn.Params[0] {
			out[Edge{b, b.Succs[0]}] = 1
		}
	}
	return out
}

const src = `package p

import "os"

func exclusive(ch chan int, a, b bool) {
	if a {
		ch <- 1
		return
	}
	if b {
		ch <- 2
	}
	ch <- 3
}

func looped(ch chan int, n int) {
	for i := 0; i < n; i++ {
		ch <- i
	}
}

func three(ch chan int) {
	for i := 0; i < 3; i++ {
		ch <- i
	}
}

func threeRange(ch chan int) {
	for i := range 3 {
		ch <- i
	}
}

func maybe(ch chan int, skip bool) int {
	if skip {
		return 0
	}
	return <-ch
}

func twice(ch chan int) int {
	return <-ch + <-ch
}

func exits(ch chan int, bad bool) int {
	if bad {
		os.Exit(1)
	}
	return <-ch
}

func forever(ch chan int) {
	for {
		<-ch
	}
}

func flagged(ch chan int, in chan int) int {
	got := false
	for {
		select {
		case <-ch:
			got = true
		case v := <-in:
			if v == 0 {
				if !got {
					<-ch
				}
				return v
			}
		}
	}
}

func quitOnce(quit chan chan error, tick chan int, fail func() bool) {
	var errc chan error
	for errc == nil {
		if fail() {
			break
		}
		select {
		case errc = <-quit:
		case <-tick:
		}
	}
	if errc == nil {
		errc = <-quit
	}
	errc <- nil
}

func quitUnlessFailed(quit chan chan error, tick chan int, fail func() bool) {
	var errc chan error
	for errc == nil {
		if fail() {
			return
		}
		select {
		case errc = <-quit:
		case <-tick:
		}
	}
	errc <- nil
}

func quitAfterError(quit chan chan error, tick chan int, try func() error) {
	var errc chan error
	var err error
	for errc == nil && err == nil {
		select {
		case errc = <-quit:
			continue
		case <-tick:
		}
		err = try()
	}
	if err != nil {
		errc = <-quit
	}
	errc <- err
}

func quitAfterOtherError(quit chan chan error, tick chan int, try, check func() error) {
	var errc chan error
	var err error
	for errc == nil && err == nil {
		select {
		case errc = <-quit:
			continue
		case <-tick:
		}
		err = try()
	}
	if checked := check(); checked != nil {
		errc = <-quit
	}
	errc <- err
}

func firstOfTwo(ch chan int) int {
	err := 0
	for range 2 {
		if e := <-ch; e != 0 {
			err = e
			break
		}
	}
	return err
}

func firstOfN(ch chan int, n int) int {
	err := 0
	for range n {
		if e := <-ch; e != 0 {
			err = e
			break
		}
	}
	return err
}

func misflagged(ch chan int, in chan int, timeout bool) int {
	got := false
	for {
		select {
		case <-ch:
			got = true
		case v := <-in:
			if timeout {
				got = true
			}
			if v == 0 {
				if !got {
					<-ch
				}
				return v
			}
		}
	}
}
`

func TestMaxCount(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want int
	}{
		{"exclusive", 2}, // 1 on one path, 2 then 3 on another
		{"looped", 99},
		{"three", 3},
		{"threeRange", 3},
	} {
		fn := build(t, src, tc.fn)
		loops := FindLoops(fn)
		trips := func(b *ssa.BasicBlock) int { return loops.Trips(b, nil, 99) }
		if got := MaxCount(fn, sends(fn), trips, 99); got != tc.want {
			t.Errorf("MaxCount(%s) = %d, want %d", tc.fn, got, tc.want)
		}
	}
}

// An If's weight counts only on its true edge: a select's send case,
// weighed at the test that enters it, and a send on the other case are
// one value, while a send after the case's own entry adds to it.
const ifSrc = `package p

func either(ch chan int, quit chan struct{}) {
	select {
	case ch <- 1:
	case <-quit:
		ch <- 2
	}
}

func both(ch chan int, quit chan struct{}) {
	select {
	case ch <- 1:
		ch <- 3
	case <-quit:
		ch <- 2
	}
}
`

func TestMaxCountIfEdge(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want int
	}{
		{"either", 1},
		{"both", 2},
	} {
		fn := build(t, ifSrc, tc.fn)
		weights := sends(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if sel, ok := instr.(*ssa.Select); ok {
					weights[firstCaseTest(t, sel)] = 1
				}
			}
		}
		one := func(*ssa.BasicBlock) int { return 1 }
		if got := MaxCount(fn, weights, one, 99); got != tc.want {
			t.Errorf("MaxCount(%s) = %d, want %d", tc.fn, got, tc.want)
		}
	}
}

// firstCaseTest returns the If that enters a select's first case: the
// test of the select's index that ends the select's own block.
func firstCaseTest(t *testing.T, sel *ssa.Select) *ssa.If {
	t.Helper()
	b := sel.Block()
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		t.Fatalf("the block of %v does not end in a test of its index", sel)
	}
	return iff
}

func TestMinCount(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want int
	}{
		{"maybe", 0},
		{"twice", 2},
		{"exits", 1}, // the os.Exit path never returns
		{"forever", -1},
		{"flagged", 1},    // the receive is skipped only once got says it happened
		{"misflagged", 0}, // got is also set on a path that did not receive
		{"firstOfTwo", 1}, // a range over 2 runs its body at least once
		{"firstOfN", 0},   // n may be 0
	} {
		fn := build(t, src, tc.fn)
		if got := MinCount(fn.Blocks[0], -1, recvs(fn), caseEdges(fn)); got != tc.want {
			t.Errorf("MinCount(%s) = %d, want %d", tc.fn, got, tc.want)
		}
	}
}

// TestMinCountTaking checks that a channel variable set by a receive is
// followed by whether it is still nil.
func TestMinCountTaking(t *testing.T) {
	taken := func(v ssa.Value) bool {
		e, ok := v.(*ssa.Extract)
		return ok && e.Index >= 2
	}
	for _, tc := range []struct {
		fn   string
		want int
	}{
		{"quitOnce", 1}, // waited for after the loop unless the loop took it
		{"quitUnlessFailed", 0},
		{"quitAfterError", 1},      // the loop leaves with err set only when it did not take it
		{"quitAfterOtherError", 0}, // another error decides the wait
	} {
		fn := build(t, src, tc.fn)
		if got := MinCountTaking(fn.Blocks[0], -1, recvs(fn), caseEdges(fn), taken); got != tc.want {
			t.Errorf("MinCountTaking(%s) = %d, want %d", tc.fn, got, tc.want)
		}
		if got := MinCount(fn.Blocks[0], -1, recvs(fn), caseEdges(fn)); got != 0 {
			t.Errorf("MinCount(%s) = %d, want 0: it does not follow channel variables", tc.fn, got)
		}
	}
}

func TestReturnReachable(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"maybe", true},
		{"twice", false},
		{"exits", false},
		{"forever", false},
	} {
		fn := build(t, src, tc.fn)
		r := recvs(fn)
		p := Path{Stop: func(i ssa.Instruction) bool { return r[i] }}
		if got := p.ReturnReachable(fn.Blocks[0], -1); got != tc.want {
			t.Errorf("a return is reachable without a receive in %s: %v, want %v", tc.fn, got, tc.want)
		}
	}
}

func TestLoops(t *testing.T) {
	fn := build(t, src, "looped")
	loops := FindLoops(fn)
	var send ssa.Instruction
	for s := range sends(fn) {
		send = s
	}
	l := loops.Innermost(send.Block())
	if l == nil {
		t.Fatal("the send is not in a loop")
	}
	edges, returns := l.Exits()
	if len(edges) != 1 || edges[0][0] != l.Header || len(returns) != 0 {
		t.Errorf("a counted loop should exit only at its header: edges %v, returns %v", edges, returns)
	}
	if LoopBound(l) == nil {
		t.Error("no bound found for i < n")
	}
	if loops.InLoop(fn.Blocks[0]) {
		t.Error("the entry block is not in a loop")
	}
}

const rangeSrc = `package p

func rangeInt(n int, ch chan bool) (k int) {
	for range n {
		if <-ch {
			k++
		}
	}
	return k
}

func spin(n int, ch chan bool) (k int) {
	i := 0
	for {
		if <-ch {
			k++
		}
		i++
		if i < n {
			continue
		}
		return k
	}
}
`

// TestBoundTestRotated checks that a range over an integer, which the IR
// tests at the end of each trip, has n for its bound, and that a loop of
// the same shape with no test before it (it runs at least once, even for
// n <= 0) has none.
func TestBoundTestRotated(t *testing.T) {
	for _, c := range []struct {
		name    string
		bounded bool
	}{{"rangeInt", true}, {"spin", false}} {
		fn := build(t, rangeSrc, c.name)
		var recv ssa.Instruction
		for r := range recvs(fn) {
			recv = r
		}
		l := FindLoops(fn).Innermost(recv.Block())
		if l == nil {
			t.Fatalf("%s: the receive is not in a loop", c.name)
		}
		bound := LoopBound(l)
		if got := bound != nil; got != c.bounded {
			t.Errorf("%s: bound %v, want bounded %v", c.name, bound, c.bounded)
		}
		if !c.bounded {
			continue
		}
		if p, ok := bound.(*ssa.Parameter); !ok || p.Name() != "n" {
			t.Errorf("%s: bound %v, want the parameter n", c.name, bound)
		}
		edges, _ := l.Exits()
		if len(edges) != 1 || edges[0][0] != TestBlock(l) || TestBlock(l) == l.Header {
			t.Errorf("%s: the one exit should be the latch's test: edges %v, test block %v", c.name, edges, TestBlock(l))
		}
	}
}

const stepSrc = `package p

func counted(n int, ch chan bool) {
	for i := 0; i < n; i++ {
		<-ch
	}
}

func skipping(n int, ch chan bool) {
	for i := 0; i < n; {
		if <-ch {
			continue
		}
		i++
	}
}

func rewinding(n int, ch chan bool) {
	for i := 0; i < n; i++ {
		if <-ch {
			i = 0
		}
	}
}

func byTwo(n int, ch chan bool) {
	for i := 0; i < n; i += 2 {
		<-ch
	}
}
`

// TestLoopBoundSteps checks that a loop whose test reads i < n is bounded
// by n only when every way back to the test steps i up: one that can come
// back without stepping, or after setting i back, runs more trips.
func TestLoopBoundSteps(t *testing.T) {
	for _, c := range []struct {
		name    string
		bounded bool
	}{{"counted", true}, {"skipping", false}, {"rewinding", false}, {"byTwo", true}} {
		l := receiveLoop(t, stepSrc, c.name)
		if got := LoopBound(l) != nil; got != c.bounded {
			t.Errorf("%s: bounded %v, want %v", c.name, got, c.bounded)
		}
		if BoundTest(l) == nil {
			t.Errorf("%s: no test of i < n found", c.name)
		}
	}
}

const tripSrc = `package p

func fromZero(n int, ch chan bool) {
	for i := 0; i < n; i++ {
		<-ch
	}
}

func fromOne(n int, ch chan bool) {
	for i := 1; i < n; i++ {
		<-ch
	}
}

func byTwos(n int, ch chan bool) {
	for i := 0; i < n; i += 2 {
		<-ch
	}
}

func overSlice(xs []int, ch chan bool) {
	for range xs {
		<-ch
	}
}

func overInt(n int, ch chan bool) {
	for range n {
		if <-ch {
			println()
		}
	}
}

func leaving(n int, ch chan bool) {
	for i := 0; i < n; i++ {
		if <-ch {
			break
		}
	}
}
`

// TestTripCount checks that a loop counts as exactly n trips only when
// its counter starts at zero, steps by one, and the bound test is its only
// way out.
func TestTripCount(t *testing.T) {
	for _, c := range []struct {
		name  string
		exact bool
	}{{"fromZero", true}, {"fromOne", false}, {"byTwos", false}, {"overSlice", true}, {"overInt", true}, {"leaving", false}} {
		l := receiveLoop(t, tripSrc, c.name)
		if got := TripCount(l) != nil; got != c.exact {
			t.Errorf("%s: exact %v, want %v", c.name, got, c.exact)
		}
	}
}

// receiveLoop returns the innermost loop around the receive of the
// function name in src.
func receiveLoop(t *testing.T, src, name string) *Loop {
	t.Helper()
	fn := build(t, src, name)
	var recv ssa.Instruction
	for r := range recvs(fn) {
		recv = r
	}
	l := FindLoops(fn).Innermost(recv.Block())
	if l == nil {
		t.Fatalf("%s: the receive is not in a loop", name)
	}
	return l
}
