module router

go 1.26.0

require google.golang.org/grpc v0.0.0

replace google.golang.org/grpc => ../google.golang.org/grpc
