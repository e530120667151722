package vies

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultVIESBaseURL is the European Commission's VIES REST API.
const DefaultVIESBaseURL = "https://ec.europa.eu/taxation_customs/vies/rest-api"

// defaultVIESClient bounds a call when the configuration gives no client:
// VIES and the member states behind it can hang, and a checkout must not.
var defaultVIESClient = &http.Client{Timeout: 10 * time.Second}

// maxVIESAnswer caps how much of an answer is read; a real one is < 2 KiB.
const maxVIESAnswer = 1 << 20

// VIES asks the EU's VAT Information Exchange System whether a member
// state's register knows a VAT number. The zero value is ready to use.
type VIES struct {
	BaseURL string       // default DefaultVIESBaseURL
	Client  *http.Client // default: a client with a 10 s timeout
}

// viesRequest is the body of POST /check-vat-number.
type viesRequest struct {
	CountryCode string `json:"countryCode"`
	VATNumber   string `json:"vatNumber"`
}

// viesAnswer is the part of the answer we read. VIES reports a failure
// either with a non-2xx status or, with 200 OK, as
// {"actionSucceed": false, "errorWrappers": [{"error": "MS_UNAVAILABLE", ...}]};
// some answers also carry "userError" (VALID, INVALID, or an error code).
type viesAnswer struct {
	Valid         *bool  `json:"valid"`
	UserError     string `json:"userError"`
	ActionSucceed *bool  `json:"actionSucceed"`
	ErrorWrappers []struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	} `json:"errorWrappers"`
}

// CheckVAT asks VIES whether the register of the member state with VAT
// prefix country ("EL" for Greece) knows number (the part after the prefix,
// as Number.Local). valid is VIES's answer. An error means VIES could not
// answer (network, timeout, HTTP error, a member state's register being
// unavailable, an answer we cannot read); it never means "invalid", so a
// caller can fall back to the offline check.
func (v *VIES) CheckVAT(ctx context.Context, country, number string) (valid bool, err error) {
	if country == "" || number == "" {
		return false, errors.New("vies: country prefix and number are both required")
	}
	base := DefaultVIESBaseURL
	client := defaultVIESClient
	if v != nil && v.BaseURL != "" {
		base = v.BaseURL
	}
	if v != nil && v.Client != nil {
		client = v.Client
	}
	body, err := json.Marshal(viesRequest{CountryCode: country, VATNumber: number})
	if err != nil {
		return false, fmt.Errorf("vies: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/check-vat-number", bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("vies: build request (check the VIES base URL %q): %w", base, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("vies: could not reach VIES: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxVIESAnswer))
	if err != nil {
		return false, fmt.Errorf("vies: read answer: %w", err)
	}
	var a viesAnswer
	decodeErr := json.Unmarshal(raw, &a)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if decodeErr == nil {
			if code := a.failure(); code != "" {
				return false, fmt.Errorf("vies: HTTP %d: %s", resp.StatusCode, code)
			}
		}
		return false, fmt.Errorf("vies: HTTP %d", resp.StatusCode)
	}
	if decodeErr != nil {
		return false, fmt.Errorf("vies: the answer is not the expected JSON: %w", decodeErr)
	}
	if code := a.failure(); code != "" {
		return false, fmt.Errorf("vies: %s", code)
	}
	if a.Valid == nil {
		return false, errors.New(`vies: the answer has no "valid" field`)
	}
	return *a.Valid, nil
}

// failure describes why VIES did not answer, or is "" when it did.
func (a viesAnswer) failure() string {
	var parts []string
	for _, w := range a.ErrorWrappers {
		p := w.Error
		if w.Message != "" {
			p += " (" + w.Message + ")"
		}
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, "; ") + viesAdvice(a.ErrorWrappers[0].Error)
	}
	if a.ActionSucceed != nil && !*a.ActionSucceed {
		return "the request did not succeed"
	}
	switch a.UserError {
	case "", "VALID", "INVALID":
		return ""
	}
	return a.UserError + viesAdvice(a.UserError)
}

// viesAdvice says what the operator can do about a VIES error code.
func viesAdvice(code string) string {
	switch code {
	case "MS_UNAVAILABLE", "SERVICE_UNAVAILABLE", "TIMEOUT", "MS_MAX_CONCURRENT_REQ", "GLOBAL_MAX_CONCURRENT_REQ":
		return ": the member state's register or VIES is busy or down; try again later"
	case "INVALID_INPUT":
		return ": VIES refused the country prefix or number as sent"
	}
	return ""
}
