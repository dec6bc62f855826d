module github.com/hark-audio/hark-go

go 1.19
