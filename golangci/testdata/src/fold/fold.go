package fold

func send(ch chan int) {
	ch <- 1 // want `^send on ch \[fold.go:1: package clause; fold.go:4: the send\]$`
}
