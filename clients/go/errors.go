package hark

import (
	"errors"
	"fmt"
)

// Errors to branch on with errors.Is: each APIError matches the one of its status.
var (
	ErrBadRequest    = errors.New("hark: bad request")
	ErrUnauthorized  = errors.New("hark: unauthorized")
	ErrForbidden     = errors.New("hark: forbidden")
	ErrNotFound      = errors.New("hark: not found")
	ErrConflict      = errors.New("hark: conflict")
	ErrUnprocessable = errors.New("hark: unprocessable")
	ErrRateLimited   = errors.New("hark: rate limited")
	ErrServer        = errors.New("hark: server error")
	// ErrWait is returned when a waiting helper gives up or the work it waited for failed.
	ErrWait = errors.New("hark: wait failed")
)

// APIError is an error answer of the API (problem+json): its status, code, detail and request id.
type APIError struct {
	Status    int
	Code      string
	Detail    string
	RequestID string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("hark: %d %s: %s", e.Status, e.Code, e.Detail)
}

// Is makes errors.Is(err, hark.ErrNotFound) and the like true for the matching status.
func (e *APIError) Is(target error) bool {
	switch e.Status {
	case 400:
		return target == ErrBadRequest
	case 401:
		return target == ErrUnauthorized
	case 403:
		return target == ErrForbidden
	case 404:
		return target == ErrNotFound
	case 409:
		return target == ErrConflict
	case 422:
		return target == ErrUnprocessable
	case 429:
		return target == ErrRateLimited
	}
	return e.Status >= 500 && target == ErrServer
}
