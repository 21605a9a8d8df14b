module github.com/nlsat/nlsat

go 1.26
