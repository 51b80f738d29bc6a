// Command main is a test program, below a directory named test: test code,
// not reported by default.
package main

func main() {}
