module example.com/dumpgen

go 1.26.0
