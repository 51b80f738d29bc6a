module example.com/demo

go 1.26.0
