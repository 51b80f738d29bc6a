module example.com/workerpool

go 1.26.0
