package hark_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	hark "github.com/hark-audio/hark-go"
)

// The Go client against a live Hark started for these tests (embedded store, a free port).

var (
	baseURL string
	apiKey  string
	folder  string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	folder, err = os.MkdirTemp("", "hark-go-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(folder)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	port := listener.Addr().(*net.TCPAddr).Port
	listener.Close()
	baseURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	server := exec.Command("node", "bin/hark.js", "serve")
	server.Dir = filepath.Join("..", "..")
	server.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "HARK_DATA_DIR="+filepath.Join(folder, "data"), "HARK_LOG_LEVEL=silent", "HARK_IMPORT_ALLOW_PRIVATE=1", "DATABASE_URL=")
	if err := server.Start(); err != nil {
		panic(err)
	}
	defer func() {
		_ = server.Process.Signal(os.Interrupt)
		_ = server.Wait()
	}()
	for deadline := time.Now().Add(60 * time.Second); ; {
		response, err := http.Get(baseURL + "/readyz")
		if err == nil {
			response.Body.Close()
			if response.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			panic("Hark did not start")
		}
		time.Sleep(300 * time.Millisecond)
	}
	body, _ := json.Marshal(map[string]string{"email": "go@example.com", "password": "a long password", "workspace_name": "Go"})
	response, err := http.Post(baseURL+"/api/v1/accounts", "application/json", bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	var registration struct {
		APIKey string `json:"api_key"`
	}
	_ = json.NewDecoder(response.Body).Decode(&registration)
	response.Body.Close()
	apiKey = registration.APIKey
	return m.Run()
}

func speech(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(folder, fmt.Sprintf("%d.wav", time.Now().UnixNano()))
	if out, err := exec.Command("flite", "-voice", "slt", "-t", text, "-o", path).CombinedOutput(); err != nil {
		t.Fatalf("flite: %v %s", err, out)
	}
	return path
}

func client() *hark.Client { return hark.New(baseURL, apiKey) }

func TestTranscribeAndAnalyse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := client()
	transcript, err := c.Transcribe(ctx, speech(t, "Please send me the invoice for last month."))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(transcript.Text), "invoice") || len(transcript.Words) < 3 {
		t.Fatalf("transcript %q", transcript.Text)
	}
	// The workspace transcribes every upload by itself: Transcribe waited for that run, it did not start a second.
	var runs struct {
		Data []hark.TranscriptionRun `json:"data"`
	}
	if err := c.ListTranscriptionRuns(ctx, hark.Params{Query: url.Values{"recording_id": {transcript.RecordingID}}}, &runs); err != nil || len(runs.Data) != 1 {
		t.Fatalf("runs of the recording: %d (%v)", len(runs.Data), err)
	}
	var scenario hark.AnalysisScenario
	questions := []map[string]string{{"id": "greeting", "text": "Did the agent greet the customer?", "type": "boolean"}, {"id": "request", "text": "What did the customer ask for?", "type": "text"}}
	if err := c.CreateAnalysisScenario(ctx, hark.Params{Body: map[string]any{"name": "Review", "questions": questions}}, &scenario); err != nil {
		t.Fatal(err)
	}
	var started hark.AnalysisRun
	if err := c.CreateAnalysisRun(ctx, hark.Params{Path: map[string]string{"recording_id": transcript.RecordingID}, Body: map[string]any{"analysis_scenario_id": scenario.ID}}, &started); err != nil {
		t.Fatal(err)
	}
	result, err := c.WaitForAnalysis(ctx, started.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := result.Answers[0]["answer"].(bool); !ok {
		t.Fatalf("a boolean answer: %v", result.Answers[0])
	}
	if _, ok := result.Answers[1]["answer"].(string); !ok {
		t.Fatalf("a text answer: %v", result.Answers[1])
	}
	first, err := c.Execute(ctx, "analysis", scenario.ID, []string{transcript.RecordingID}, "nightly-1")
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Execute(ctx, "analysis", scenario.ID, []string{transcript.RecordingID}, "nightly-1")
	if err != nil || again.ID != first.ID {
		t.Fatalf("the same key gives the same execution: %v %s %s", err, first.ID, again.ID)
	}
}

func TestPaging(t *testing.T) {
	ctx := context.Background()
	c := client()
	for i := 0; i < 3; i++ {
		file, err := os.Open(speech(t, fmt.Sprintf("Call number %d.", i)))
		if err != nil {
			t.Fatal(err)
		}
		options := hark.UploadOptions{Metadata: map[string]any{"agent": "ana"}}
		if i == 0 {
			options.RecordedAt = "2026-10-05T09:30:00Z"
		}
		uploaded, err := c.UploadReader(ctx, io.MultiReader(file), fmt.Sprintf("call-%d.wav", i), options)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && (uploaded.RecordedAtSource != "client" || !strings.HasPrefix(uploaded.RecordedAt, "2026-10-05T09:30")) {
			t.Fatalf("the call date was not kept: %s %s", uploaded.RecordedAtSource, uploaded.RecordedAt)
		}
	}
	var seen []string
	err := c.Each(ctx, c.ListRecordings, hark.Params{Query: url.Values{"limit": {"2"}}}, func(item json.RawMessage) error {
		var recording hark.Recording
		if err := json.Unmarshal(item, &recording); err != nil {
			return err
		}
		seen = append(seen, recording.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var all hark.ListRecordingsAnswer
	if err := c.ListRecordings(ctx, hark.Params{Query: url.Values{"limit": {"100"}}}, &all); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 3 || len(seen) != len(all.Data) {
		t.Fatalf("paged %d, listed %d", len(seen), len(all.Data))
	}
}

func TestTextAnswer(t *testing.T) {
	ctx := context.Background()
	c := client()
	var report string
	if err := c.GetRecordingsReport(ctx, hark.Params{Accept: "text/csv"}, &report); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.SplitN(report, "\n", 2)[0], ",") || strings.HasPrefix(report, "{") {
		t.Fatalf("a CSV report as text: %q", report)
	}
	var typed hark.GetRecordingsReportAnswer
	if err := c.GetRecordingsReport(ctx, hark.Params{}, &typed); err != nil {
		t.Fatal(err)
	}
	if typed.Groups == nil {
		t.Fatalf("a report's groups: %+v", typed)
	}
}

func TestConnectionErrorNamesTheHost(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := listener.Addr().String()
	listener.Close()
	c := hark.New("http://"+address, "hark_x")
	c.MaxRetries = 0
	err = c.ListRecordings(context.Background(), hark.Params{Path: map[string]string{"workspace_id": "ws-x"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no answer from "+address) {
		t.Fatalf("a connection error naming %s: %v", address, err)
	}
}

func TestTypedErrors(t *testing.T) {
	ctx := context.Background()
	c := client()
	err := c.GetRecording(ctx, hark.Params{Path: map[string]string{"recording_id": "fl-00000000-0000-0000-0000-000000000000"}}, nil)
	var apiError *hark.APIError
	if !errors.Is(err, hark.ErrNotFound) || !errors.As(err, &apiError) || apiError.Code != "not_found" || apiError.RequestID == "" {
		t.Fatalf("a not-found error: %v", err)
	}
	var key struct {
		Key string `json:"key"`
	}
	if err := c.CreateApiKey(ctx, hark.Params{Body: map[string]any{"name": "read only", "scopes": []string{"recordings:read"}}}, &key); err != nil {
		t.Fatal(err)
	}
	err = hark.New(baseURL, key.Key).CreateAnalysisScenario(ctx, hark.Params{Body: map[string]any{"name": "x"}}, nil)
	if !errors.Is(err, hark.ErrForbidden) {
		t.Fatalf("a forbidden error: %v", err)
	}
}

func TestRateLimitIsRetried(t *testing.T) {
	var mu sync.Mutex
	var calls []time.Time
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, time.Now())
		n := len(calls)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			_, _ = io.WriteString(w, `{"code":"rate_limited","detail":"slow down","status":429}`)
			return
		}
		_, _ = io.WriteString(w, `{"data":[{"id":"ws-1"}]}`)
	}))
	defer stub.Close()
	id, err := hark.New(stub.URL, "hark_x").WorkspaceID(context.Background())
	if err != nil || id != "ws-1" || len(calls) != 2 || calls[1].Sub(calls[0]) < 900*time.Millisecond {
		t.Fatalf("retried after Retry-After: %v %s %d", err, id, len(calls))
	}
	calls = nil
	limited := hark.New(stub.URL, "hark_x")
	limited.MaxRetries = 0
	if err := limited.ListWorkspaces(context.Background(), hark.Params{}, nil); !errors.Is(err, hark.ErrRateLimited) {
		t.Fatalf("a rate-limit error: %v", err)
	}
}

func TestWebhookVerified(t *testing.T) {
	ctx := context.Background()
	received := make(chan *http.Request, 1)
	bodies := make(chan []byte, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies <- body
		received <- r
	}))
	defer receiver.Close()
	c := client()
	var hook struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	if err := c.CreateWebhook(ctx, hark.Params{Body: map[string]any{"url": receiver.URL + "/hook", "events": []string{"recording.download_failed"}}}, &hook); err != nil {
		t.Fatal(err)
	}
	if err := c.SendTestEvent(ctx, hark.Params{Path: map[string]string{"webhook_id": hook.ID}}, nil); err != nil {
		t.Fatal(err)
	}
	var body []byte
	var request *http.Request
	select {
	case body = <-bodies:
		request = <-received
	case <-time.After(30 * time.Second):
		t.Fatal("no delivery")
	}
	event, err := hark.VerifyWebhook(body, request.Header, hook.Secret, 0)
	if err != nil || event.Type != "webhook.test" {
		t.Fatalf("verified: %v %v", err, event)
	}
	if _, err := hark.VerifyWebhook(bytes.Replace(body, []byte("webhook.test"), []byte("webhook.evil"), 1), request.Header, hook.Secret, 0); !errors.Is(err, hark.ErrWebhookVerification) {
		t.Fatalf("a tampered delivery is refused: %v", err)
	}
}

func TestQuickstart(t *testing.T) {
	command := exec.Command("go", "run", "./examples/quickstart", speech(t, "Thank you for calling, goodbye."))
	command.Env = append(os.Environ(), "HARK_URL="+baseURL, "HARK_API_KEY="+apiKey)
	var stdout bytes.Buffer
	command.Stdout = &stdout
	command.Stderr = os.Stderr
	if err := command.Run(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 1 || !strings.Contains(strings.ToLower(lines[0]), "thank you") {
		t.Fatalf("quickstart printed %q", stdout.String())
	}
}
