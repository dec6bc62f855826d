// Package hark is the Go client of Hark, the self-hosted audio transcription and analysis service:
// a method per API operation (generated.go), retries with backoff and jitter, typed errors, and
// helpers that upload, wait and page. Standard library only; a context on every call.
package hark

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	mathrand "math/rand"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Version of this client, sent in its User-Agent.
const Version = "0.1.0"

// Client talks to one Hark server with one API key.
type Client struct {
	BaseURL    string
	APIKey     string
	HTTPClient *http.Client
	MaxRetries int
	workspace  string
}

// New makes a client; an empty baseURL or apiKey is read from HARK_URL and HARK_API_KEY.
func New(baseURL, apiKey string) *Client {
	if baseURL == "" {
		baseURL = os.Getenv("HARK_URL")
	}
	if baseURL == "" {
		baseURL = "http://127.0.0.1:8080"
	}
	if apiKey == "" {
		apiKey = os.Getenv("HARK_API_KEY")
	}
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), APIKey: apiKey, HTTPClient: &http.Client{Timeout: 60 * time.Second}, MaxRetries: 3}
}

// Params of one operation: path parameters (the workspace is the key's own unless given), query,
// a JSON body (or a *Form), an idempotency key that makes a POST safe to retry, and the media type
// asked for (Accept: application/json unless given, e.g. "text/csv" for a report as CSV).
type Params struct {
	Path           map[string]string
	Query          url.Values
	Body           any
	IdempotencyKey string
	Accept         string
}

// Backoff is exponential with full jitter, capped at 8 seconds.
func Backoff(attempt int) time.Duration {
	limit := math.Min(8000, 500*math.Pow(2, float64(attempt)))
	return time.Duration(mathrand.Float64()*limit) * time.Millisecond
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// WorkspaceID is the key's workspace, asked once.
func (c *Client) WorkspaceID(ctx context.Context) (string, error) {
	if c.workspace != "" {
		return c.workspace, nil
	}
	var list struct {
		Data []Workspace `json:"data"`
	}
	if err := c.ListWorkspaces(ctx, Params{}, &list); err != nil {
		return "", err
	}
	if len(list.Data) == 0 {
		return "", fmt.Errorf("hark: the API key has no workspace")
	}
	c.workspace = list.Data[0].ID
	return c.workspace, nil
}

func (c *Client) call(ctx context.Context, method, template string, p Params, out any) error {
	path := template
	for strings.Contains(path, "{") {
		start := strings.Index(path, "{")
		end := strings.Index(path, "}")
		name := path[start+1 : end]
		value := p.Path[name]
		if value == "" && name == "workspace_id" {
			id, err := c.WorkspaceID(ctx)
			if err != nil {
				return err
			}
			value = id
		}
		if value == "" {
			return fmt.Errorf("hark: %s is needed for %s %s", name, method, template)
		}
		path = path[:start] + url.PathEscape(value) + path[end+1:]
	}
	return c.Do(ctx, method, path, p, out)
}

// Form is a multipart body streamed from a file, never read whole.
type Form struct {
	Fields   map[string]string
	File     io.Reader
	Filename string
}

// Do sends one request with the client's retries and decodes the JSON answer into out (a *[]byte
// or *string takes the answer as it came: audio, a transcript's SRT, a report's CSV).
func (c *Client) Do(ctx context.Context, method, path string, p Params, out any) error {
	target := c.BaseURL + path
	if len(p.Query) > 0 {
		target += "?" + p.Query.Encode()
	}
	form, streamed := p.Body.(*Form)
	var payload []byte
	if p.Body != nil && !streamed {
		encoded, err := json.Marshal(p.Body)
		if err != nil {
			return err
		}
		payload = encoded
	}
	_, keyed := p.Body.(map[string]any)
	if keyed {
		_, keyed = p.Body.(map[string]any)["idempotency_key"]
	}
	retryable := !streamed && (method != http.MethodPost || p.IdempotencyKey != "" || keyed)
	for attempt := 0; ; attempt++ {
		var body io.Reader
		contentType := ""
		if streamed {
			reader, writer := io.Pipe()
			parts := multipart.NewWriter(writer)
			contentType = parts.FormDataContentType()
			go func() {
				for name, value := range form.Fields {
					if err := parts.WriteField(name, value); err != nil {
						writer.CloseWithError(err)
						return
					}
				}
				file, err := parts.CreateFormFile("file", form.Filename)
				if err == nil {
					_, err = io.Copy(file, form.File)
				}
				if err == nil {
					err = parts.Close()
				}
				writer.CloseWithError(err)
			}()
			body = reader
		} else if payload != nil {
			body = bytes.NewReader(payload)
			contentType = "application/json"
		}
		request, err := http.NewRequestWithContext(ctx, method, target, body)
		if err != nil {
			return err
		}
		request.Header.Set("Authorization", "Bearer "+c.APIKey)
		request.Header.Set("User-Agent", fmt.Sprintf("hark-go/%s %s", Version, runtime.Version()))
		if p.Accept != "" {
			request.Header.Set("Accept", p.Accept)
		} else {
			request.Header.Set("Accept", "application/json")
		}
		if contentType != "" {
			request.Header.Set("Content-Type", contentType)
		}
		if p.IdempotencyKey != "" {
			request.Header.Set("Idempotency-Key", p.IdempotencyKey)
		}
		response, err := c.HTTPClient.Do(request)
		if err != nil {
			if ctx.Err() == nil && retryable && attempt < c.MaxRetries {
				if err := sleep(ctx, Backoff(attempt)); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("hark: %s %s: no answer from %s: %w", method, path, request.URL.Host, err)
		}
		data, err := io.ReadAll(response.Body)
		response.Body.Close()
		if err != nil {
			return err
		}
		if response.StatusCode < 300 {
			if out == nil || response.StatusCode == http.StatusNoContent {
				return nil
			}
			if raw, ok := out.(*[]byte); ok {
				*raw = data
				return nil
			}
			if text, ok := out.(*string); ok {
				*text = string(data)
				return nil
			}
			return json.Unmarshal(data, out)
		}
		var problem Problem
		_ = json.Unmarshal(data, &problem)
		apiError := &APIError{Status: response.StatusCode, Code: problem.Code, Detail: problem.Detail, RequestID: problem.RequestID}
		if apiError.RequestID == "" {
			apiError.RequestID = response.Header.Get("X-Request-Id")
		}
		if retryable && attempt < c.MaxRetries && (response.StatusCode == 429 || response.StatusCode >= 500) {
			wait := Backoff(attempt)
			if seconds, err := strconv.ParseFloat(response.Header.Get("Retry-After"), 64); err == nil && seconds > 0 {
				wait = time.Duration(math.Min(seconds, 60) * float64(time.Second))
			}
			if err := sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		return apiError
	}
}

// ---- helpers ----

// UploadOptions of Upload.
type UploadOptions struct {
	Metadata      map[string]any
	RetentionDays int
	// RecordedAt is when the call took place (RFC 3339); empty: read from the file, else the upload time.
	RecordedAt string
}

// Upload sends a file from a path, streamed from disk.
func (c *Client) Upload(ctx context.Context, file string, options UploadOptions) (*Recording, error) {
	handle, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer handle.Close()
	return c.UploadReader(ctx, handle, filepath.Base(file), options)
}

// UploadReader sends audio read from r (a stream), never holding it whole.
func (c *Client) UploadReader(ctx context.Context, r io.Reader, filename string, options UploadOptions) (*Recording, error) {
	fields := map[string]string{}
	if options.Metadata != nil {
		encoded, err := json.Marshal(options.Metadata)
		if err != nil {
			return nil, err
		}
		fields["metadata"] = string(encoded)
	}
	if options.RetentionDays > 0 {
		fields["retention_days"] = strconv.Itoa(options.RetentionDays)
	}
	if options.RecordedAt != "" {
		fields["recorded_at"] = options.RecordedAt
	}
	var recording Recording
	err := c.UploadRecording(ctx, Params{Body: &Form{Fields: fields, File: r, Filename: filename}}, &recording)
	return &recording, err
}

// until polls check with a capped backoff until it reports done, or the context ends.
func until(ctx context.Context, check func() (bool, error)) error {
	for attempt := 0; ; attempt++ {
		done, err := check()
		if err != nil || done {
			return err
		}
		if err := sleep(ctx, time.Duration(math.Min(5000, 250*math.Pow(1.5, float64(attempt))))*time.Millisecond); err != nil {
			return fmt.Errorf("%w: %v", ErrWait, err)
		}
	}
}

// WaitForRecording waits until a recording is prepared; give ctx a deadline to bound the wait.
func (c *Client) WaitForRecording(ctx context.Context, recordingID string) (*Recording, error) {
	var recording Recording
	err := until(ctx, func() (bool, error) {
		if err := c.GetRecording(ctx, Params{Path: map[string]string{"recording_id": recordingID}}, &recording); err != nil {
			return false, err
		}
		if recording.Status == "failed" || recording.Status == "download_failed" {
			return false, fmt.Errorf("%w: recording %s %s", ErrWait, recordingID, recording.Status)
		}
		return recording.Status == "completed", nil
	})
	return &recording, err
}

func waitRun(ctx context.Context, get func(ctx context.Context, p Params, out any) error, kind, runID string) (string, error) {
	var run struct {
		Status       string  `json:"status"`
		RecordingID  string  `json:"recording_id"`
		ErrorCode    *string `json:"error_code"`
		ErrorMessage *string `json:"error_message"`
	}
	err := until(ctx, func() (bool, error) {
		if err := get(ctx, Params{Path: map[string]string{"run_id": runID}}, &run); err != nil {
			return false, err
		}
		if run.Status == "failed" || run.Status == "cancelled" {
			return false, fmt.Errorf("%w: %s run %s %s", ErrWait, kind, runID, run.Status)
		}
		return run.Status == "completed", nil
	})
	return run.RecordingID, err
}

// WaitForTranscript waits for a transcription run and returns its transcript.
func (c *Client) WaitForTranscript(ctx context.Context, runID string) (*Transcript, error) {
	if _, err := waitRun(ctx, c.GetTranscriptionRun, "transcription", runID); err != nil {
		return nil, err
	}
	var transcript Transcript
	err := c.GetRunTranscript(ctx, Params{Path: map[string]string{"run_id": runID}}, &transcript)
	return &transcript, err
}

// WaitForAnalysis waits for an analysis run and returns its result.
func (c *Client) WaitForAnalysis(ctx context.Context, runID string) (*AnalysisResult, error) {
	recordingID, err := waitRun(ctx, c.GetAnalysisRun, "analysis", runID)
	if err != nil {
		return nil, err
	}
	var result AnalysisResult
	err = c.GetAnalysisResult(ctx, Params{Path: map[string]string{"recording_id": recordingID, "run_id": runID}}, &result)
	return &result, err
}

// Transcribe uploads a file and waits for its transcript: the run an automatic scenario started
// on upload, else a new run on the workspace's default scenario.
func (c *Client) Transcribe(ctx context.Context, file string) (*Transcript, error) {
	recording, err := c.Upload(ctx, file, UploadOptions{})
	if err != nil {
		return nil, err
	}
	if _, err := c.WaitForRecording(ctx, recording.ID); err != nil {
		return nil, err
	}
	// Newest first: a run an automatic scenario started on upload exists once the recording is
	// prepared, and is waited for rather than transcribing the call twice.
	var runs struct {
		Data []TranscriptionRun `json:"data"`
	}
	if err := c.ListTranscriptionRuns(ctx, Params{Query: url.Values{"recording_id": {recording.ID}, "limit": {"1"}}}, &runs); err != nil {
		return nil, err
	}
	if len(runs.Data) > 0 && runs.Data[0].Status != "failed" && runs.Data[0].Status != "cancelled" {
		return c.WaitForTranscript(ctx, runs.Data[0].ID)
	}
	var run TranscriptionRun
	if err := c.CreateTranscriptionRun(ctx, Params{Path: map[string]string{"recording_id": recording.ID}, Body: map[string]any{}}, &run); err != nil {
		return nil, err
	}
	return c.WaitForTranscript(ctx, run.ID)
}

// Each calls fn with every item of a list, following next_cursor page after page.
func (c *Client) Each(ctx context.Context, list func(ctx context.Context, p Params, out any) error, p Params, fn func(item json.RawMessage) error) error {
	query := url.Values{}
	for name, values := range p.Query {
		query[name] = values
	}
	for {
		var page struct {
			Data       []json.RawMessage `json:"data"`
			NextCursor *string           `json:"next_cursor"`
		}
		if err := list(ctx, Params{Path: p.Path, Query: query}, &page); err != nil {
			return err
		}
		for _, item := range page.Data {
			if err := fn(item); err != nil {
				return err
			}
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			return nil
		}
		query.Set("cursor", *page.NextCursor)
	}
}

// Execute starts an execution of a scenario ("transcription" or "analysis"); without an
// idempotency key one is made, so a retried call never starts the work twice.
func (c *Client) Execute(ctx context.Context, kind, scenarioID string, recordingIDs []string, idempotencyKey string) (*Execution, error) {
	if idempotencyKey == "" {
		random := make([]byte, 16)
		if _, err := rand.Read(random); err != nil {
			return nil, err
		}
		idempotencyKey = hex.EncodeToString(random)
	}
	body := map[string]any{"idempotency_key": idempotencyKey}
	if recordingIDs != nil {
		body["recording_ids"] = recordingIDs
	}
	p := Params{Path: map[string]string{"scenario_id": scenarioID}, Body: body}
	var execution Execution
	var err error
	if kind == "transcription" {
		err = c.CreateTranscriptionExecution(ctx, p, &execution)
	} else {
		err = c.CreateAnalysisExecution(ctx, p, &execution)
	}
	return &execution, err
}
