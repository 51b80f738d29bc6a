// Command relay answers each connection with the first backend that has
// the key it asks for. Its main serves until killed, and every connection
// leaves one generator blocked once the key is found: the leak grows with
// the traffic, so it is reported.
package main

import (
	"bufio"
	"log"
	"net"
	"os"
	"strings"
)

func main() {
	ln, err := net.Listen("tcp", os.Getenv("RELAY_ADDR"))
	if err != nil {
		log.Fatal(err)
	}
	for {
		conn, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		key, _ := bufio.NewReader(conn).ReadString('\n')
		backends := make(chan string)
		go listBackends(backends)
		if b, ok := firstWith(backends, strings.TrimSpace(key)); ok {
			conn.Write([]byte(b + "\n"))
		}
		conn.Close()
	}
}

func listBackends(out chan string) {
	for _, b := range strings.Split(os.Getenv("RELAY_BACKENDS"), ",") {
		out <- b // want `send on out \(chan string, unbuffered\) can block forever: its receiver firstWith can return before draining it$`
	}
	close(out)
}

func firstWith(backends chan string, key string) (string, bool) {
	for b := range backends {
		if strings.HasPrefix(key, b) {
			return b, true
		}
	}
	return "", false
}
