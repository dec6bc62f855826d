package hark

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrWebhookVerification is returned for a delivery whose signature or timestamp does not check.
var ErrWebhookVerification = errors.New("hark: webhook verification failed")

// WebhookEvent is the body of a webhook delivery.
type WebhookEvent struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	CreatedAt   string          `json:"created_at"`
	WorkspaceID string          `json:"workspace_id"`
	Data        json.RawMessage `json:"data"`
}

// VerifyWebhook checks a delivery's Standard Webhooks headers against its raw body and the whsec_
// secret, with a timestamp tolerance (5 minutes when zero), and returns the event.
func VerifyWebhook(body []byte, header http.Header, secret string, tolerance time.Duration) (*WebhookEvent, error) {
	if tolerance == 0 {
		tolerance = 5 * time.Minute
	}
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return nil, ErrWebhookVerification
	}
	sent, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || math.Abs(float64(time.Now().Unix()-sent)) > tolerance.Seconds() {
		return nil, ErrWebhookVerification
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil, ErrWebhookVerification
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "." + string(body)))
	expected := mac.Sum(nil)
	for _, entry := range strings.Split(signatures, " ") {
		version, value, found := strings.Cut(entry, ",")
		if !found || version != "v1" {
			continue
		}
		given, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(given, expected) {
			var event WebhookEvent
			if err := json.Unmarshal(body, &event); err != nil {
				return nil, ErrWebhookVerification
			}
			return &event, nil
		}
	}
	return nil, ErrWebhookVerification
}
