// Quickstart uploads an audio file, transcribes it with the workspace's default scenario and prints
// the text. From clients/go: HARK_URL=… HARK_API_KEY=… go run ./examples/quickstart FILE
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	hark "github.com/hark-audio/hark-go"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: quickstart AUDIO_FILE")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	transcript, err := hark.New("", "").Transcribe(ctx, os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(transcript.Text)
}
