module example.com/empty

go 1.26.0
