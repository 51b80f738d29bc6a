// Command demo is a server a test suite runs (a program below a directory
// named testing): test code, not reported by default.
package main

func main() {} // reported only under -tests
