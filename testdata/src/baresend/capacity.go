package baresend

import "errors"

func work() error { return errors.New("failed") }

func oneSendOneSlotOK() error {
	errc := make(chan error, 1)
	go func() {
		errc <- work() // ok: the buffer holds the only value
	}()
	return nil
}

func twoSendsOneSlotOneReceiveOK() error {
	errc := make(chan error, 1)
	go func() { errc <- work() }() // ok: one value is received, the other fits the buffer
	go func() { errc <- work() }() // ok: as above
	return <-errc
}

func threeSendsOneSlotOneReceiveBad() error {
	errc := make(chan error, 1)
	go func() { errc <- work() }() // want `send on errc \(chan error, cap 1\) can block forever: threeSendsOneSlotOneReceiveBad can return before receiving every value`
	go func() { errc <- work() }() // want `send on errc .* can return before receiving every value`
	go func() { errc <- work() }() // want `send on errc .* can return before receiving every value`
	return <-errc
}

func onePerElementOK(xs []int) {
	results := make(chan int, len(xs))
	for _, x := range xs {
		go func() {
			results <- x * x // ok: len(xs) slots for len(xs) sends
		}()
	}
}

func countedLoopOK(n int) {
	done := make(chan bool, n)
	for i := 0; i < n; i++ {
		go func() { done <- true }() // ok: n slots for n sends
	}
}

func sendBeforeEscapeOK() chan int {
	ch := make(chan int, 1)
	ch <- 1 // ok: made here, sent before anyone else can see it
	return ch
}

func sendLoopOverflowsBad(xs []int) <-chan int {
	ch := make(chan int, 1)
	for _, x := range xs {
		ch <- x // ok: the channel is returned, its reader is not visible here
	}
	return ch
}

func nobodyReceivesBad() {
	done := make(chan bool)
	done <- true // want `send on done \(chan bool, unbuffered\) can block forever: nothing receives from it`
}
