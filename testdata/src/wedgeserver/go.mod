module wedgeserver

go 1.26.0
