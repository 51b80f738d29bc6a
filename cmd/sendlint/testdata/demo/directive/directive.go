// Package directive holds a malformed suppression directive.
package directive

func send(ch chan int) {
	//sendlint:ignore baresend
	ch <- 1
}
