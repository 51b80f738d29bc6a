module github.com/sendlint/sendlint

go 1.26.0
