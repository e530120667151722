package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document):
// a client whose client_id is an https URL publishes its metadata there.

// Cache lifetimes of a fetched document: its Cache-Control max-age clamped.
const (
	cimdMinTTL     = 30 * time.Second
	cimdMaxTTL     = 24 * time.Hour
	cimdDefaultTTL = 5 * time.Minute
	cimdMaxEntries = 1000
)

// isURLClientID reports whether a client_id is meant as a metadata
// document URL (it is then validated by validCIMDURL).
func isURLClientID(id string) bool {
	return strings.Contains(id, "://") || strings.HasPrefix(strings.ToLower(id), "https:") || strings.HasPrefix(strings.ToLower(id), "http:")
}

// validCIMDURL checks a client_id URL: https, a host, a path other than
// "/", no query, fragment, userinfo or dot segments.
func validCIMDURL(id string) (*url.URL, error) {
	if len(id) > 2000 {
		return nil, errors.New("the client_id URL is too long")
	}
	if strings.ContainsAny(id, "#\\ \t\r\n") {
		return nil, errors.New("the client_id URL has a fragment or characters that are not allowed")
	}
	u, err := url.Parse(id)
	if err != nil {
		return nil, errors.New("the client_id is not a valid URL")
	}
	switch {
	case u.Scheme != "https":
		return nil, errors.New("a client_id URL must use https")
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return nil, errors.New("the client_id URL has no host")
	case u.User != nil:
		return nil, errors.New("the client_id URL has user information")
	case u.RawQuery != "" || u.ForceQuery:
		return nil, errors.New("the client_id URL has a query")
	case u.Path == "" || u.Path == "/":
		return nil, errors.New("the client_id URL has no path")
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		switch strings.ToLower(seg) {
		case ".", "..", "%2e", "%2e%2e", ".%2e", "%2e.":
			return nil, errors.New("the client_id URL has dot segments")
		}
	}
	return u, nil
}

// cimdFetchError is a failure to fetch a document (network, TLS, the SSRF
// guard): its detail is logged, not shown.
type cimdFetchError struct{ err error }

func (e *cimdFetchError) Error() string {
	return "fetch the client metadata document: " + e.err.Error()
}
func (e *cimdFetchError) Unwrap() error { return e.err }

// cimdReason says why a metadata document was refused, for people: the
// validation messages as they are, fetch failures without their detail.
func cimdReason(err error) string {
	var fe *cimdFetchError
	if errors.As(err, &fe) {
		return "it could not be fetched (only https on public addresses is allowed, answering within 5 seconds)"
	}
	return err.Error()
}

// cimdDocument is the part of a client metadata document we read.
type cimdDocument struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	ClientURI               string   `json:"client_uri"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
}

type cimdEntry struct {
	client  Client
	expires time.Time
}

// cimdCache fetches and caches metadata documents per URL. Errors are not
// cached.
type cimdCache struct {
	a      *Auth
	client *http.Client

	mu      sync.Mutex
	entries map[string]cimdEntry
}

func newCIMDCache(a *Auth) *cimdCache {
	c := a.cfg.MetadataClient
	if c == nil {
		c = guardedClient()
	} else {
		cp := *c
		cp.CheckRedirect = checkMetadataRedirect
		if cp.Timeout == 0 {
			cp.Timeout = metadataTimeout
		}
		c = &cp
	}
	return &cimdCache{a: a, client: c, entries: map[string]cimdEntry{}}
}

// get returns the client of a metadata document URL, from the cache or
// fetched, validated and saved in the store.
func (c *cimdCache) get(ctx context.Context, id string) (Client, error) {
	now := c.a.now()
	c.mu.Lock()
	e, ok := c.entries[id]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.client, nil
	}
	cl, ttl, err := c.fetch(ctx, id)
	if err != nil {
		return Client{}, err
	}
	if err := c.a.store.UpsertClient(ctx, cl); err != nil {
		return Client{}, fmt.Errorf("save metadata client: %w", err)
	}
	c.mu.Lock()
	if len(c.entries) >= cimdMaxEntries {
		for k, v := range c.entries {
			if !now.Before(v.expires) {
				delete(c.entries, k)
			}
		}
		for k := range c.entries {
			if len(c.entries) < cimdMaxEntries {
				break
			}
			delete(c.entries, k)
		}
	}
	c.entries[id] = cimdEntry{client: cl, expires: now.Add(ttl)}
	c.mu.Unlock()
	return cl, nil
}

// fetch gets and validates the document at id, returning the client and
// how long to cache it.
func (c *cimdCache) fetch(ctx context.Context, id string) (Client, time.Duration, error) {
	u, err := validCIMDURL(id)
	if err != nil {
		return Client{}, 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, metadataTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return Client{}, 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return Client{}, 0, &cimdFetchError{err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != statusOK {
		return Client{}, 0, fmt.Errorf("the client metadata document answered %d", resp.StatusCode)
	}
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return Client{}, 0, errors.New("the client metadata document is not application/json")
	}
	if resp.ContentLength > metadataMaxBytes {
		return Client{}, 0, errors.New("the client metadata document is larger than 5 KB")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, metadataMaxBytes+1))
	if err != nil {
		return Client{}, 0, fmt.Errorf("read the client metadata document: %w", err)
	}
	if len(body) > metadataMaxBytes {
		return Client{}, 0, errors.New("the client metadata document is larger than 5 KB")
	}
	cl, err := c.parse(id, u, body)
	if err != nil {
		return Client{}, 0, err
	}
	return cl, cacheTTL(resp.Header), nil
}

// parse validates a document's body and turns it into a client.
func (c *cimdCache) parse(id string, u *url.URL, body []byte) (Client, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return Client{}, errors.New("the client metadata document is not a JSON object")
	}
	for _, k := range []string{"client_secret", "client_secret_expires_at", "jwks"} {
		if _, ok := raw[k]; ok {
			return Client{}, fmt.Errorf("the client metadata document must not contain %s", k)
		}
	}
	var d cimdDocument
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&d); err != nil {
		return Client{}, fmt.Errorf("the client metadata document has a field of the wrong type: %v", err)
	}
	if d.ClientID != id {
		return Client{}, errors.New("the client_id in the metadata document is not the document's URL")
	}
	if d.TokenEndpointAuthMethod != "" && d.TokenEndpointAuthMethod != authNone {
		return Client{}, errors.New(`a metadata document client must use token_endpoint_auth_method "none"`)
	}
	if len(d.RedirectURIs) == 0 || len(d.RedirectURIs) > maxRedirectURIs {
		return Client{}, fmt.Errorf("the client metadata document must list 1 to %d redirect_uris", maxRedirectURIs)
	}
	for _, r := range d.RedirectURIs {
		if err := validRedirectURI(r); err != nil {
			return Client{}, err
		}
	}
	for _, g := range d.GrantTypes {
		if g != grantCode && g != grantRefresh {
			return Client{}, fmt.Errorf("unsupported grant type %q in the client metadata document", truncate(g, 40))
		}
	}
	name := strings.TrimSpace(d.ClientName)
	if name == "" {
		name = u.Hostname()
	}
	if utf8.RuneCountInString(name) > maxClientName || hasControl(name) {
		return Client{}, errors.New("the client_name in the metadata document is too long or has control characters")
	}
	uri := ""
	if d.ClientURI != "" {
		if cu, err := url.Parse(d.ClientURI); err == nil && cu.Scheme == "https" && cu.Host != "" && cu.User == nil {
			uri = d.ClientURI
		}
	}
	now := c.a.now()
	return Client{ID: id, Name: name, URI: uri, RedirectURIs: d.RedirectURIs, AuthMethod: authNone,
		Kind: ClientMetadata, CreatedAt: now, LastUsedAt: now}, nil
}

// cacheTTL is the response's Cache-Control max-age clamped to
// [cimdMinTTL, cimdMaxTTL]; no-store and no-cache mean the minimum.
func cacheTTL(h http.Header) time.Duration {
	ttl := cimdDefaultTTL
	for _, d := range strings.Split(h.Get("Cache-Control"), ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-store" || d == "no-cache":
			return cimdMinTTL
		case strings.HasPrefix(d, "max-age="):
			if n, err := strconv.ParseInt(strings.Trim(d[len("max-age="):], `"`), 10, 64); err == nil && n >= 0 {
				ttl = time.Duration(min(n, int64(cimdMaxTTL/time.Second))) * time.Second
			}
		}
	}
	return max(cimdMinTTL, min(ttl, cimdMaxTTL))
}

// hasControl reports whether s has control or bidirectional formatting
// characters (which could make a name look like another on consent).
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' ||
			r == '\u200e' || r == '\u200f' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return true
		}
	}
	return false
}
