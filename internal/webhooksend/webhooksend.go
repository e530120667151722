// Package webhooksend POSTs webhook events to their receivers
// (domain.WebhookSender, docs/webhooks.md): only to public addresses (the
// crawler's dial-time guard, internal/netguard), never following a redirect,
// within a timeout, reading at most a bounded answer.
package webhooksend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/launchdir/launchdir/internal/netguard"
)

// Options tune a Sender; zero values mean the defaults.
type Options struct {
	// AllowLoopback opens loopback addresses (--fetch-allow-loopback), for local testing only.
	AllowLoopback bool
	// Timeout bounds one attempt in all; default 10s. Connecting has half of it.
	Timeout time.Duration
	// MaxBody is how much of an answer is read; default 64 KiB.
	MaxBody int64
}

// Sender implements domain.WebhookSender.
type Sender struct {
	opts   Options
	client *http.Client
}

// New returns a Sender.
func New(opts Options) *Sender {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = 64 << 10
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would be dialled instead, and judged by the guard
		DialContext:            netguard.Dialer(opts.Timeout/2, opts.AllowLoopback).DialContext,
		TLSHandshakeTimeout:    opts.Timeout / 2,
		ResponseHeaderTimeout:  opts.Timeout,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 16 << 10,
	}
	return &Sender{opts: opts, client: &http.Client{Transport: tr, Timeout: opts.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Close drops idle connections.
func (s *Sender) Close() { s.client.CloseIdleConnections() }

// CheckHost implements domain.WebhookSender: an IP literal must be public,
// and localhost names count as loopback.
func (s *Sender) CheckHost(host string) error {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		if s.opts.AllowLoopback {
			return nil
		}
		return errors.New(host + " is a loopback name")
	}
	if ip, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return netguard.CheckAddr(ip, s.opts.AllowLoopback)
	}
	return nil
}

// Send implements domain.WebhookSender.
func (s *Sender) Send(ctx context.Context, url string, header map[string]string, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return 0, explain(err)
	}
	defer res.Body.Close()
	n, rerr := io.Copy(io.Discard, io.LimitReader(res.Body, s.opts.MaxBody+1))
	switch {
	case n > s.opts.MaxBody:
		return res.StatusCode, fmt.Errorf("the answer is larger than %d bytes; cut off", s.opts.MaxBody)
	case rerr != nil:
		return res.StatusCode, fmt.Errorf("reading the answer: %w", explain(rerr))
	case res.StatusCode >= 300 && res.StatusCode < 400:
		return res.StatusCode, fmt.Errorf("HTTP %d redirect to %q not followed: webhooks are POSTed to the registered address only", res.StatusCode, res.Header.Get("Location"))
	}
	return res.StatusCode, nil
}

// explain turns transport errors into what the owner reads in the log.
func explain(err error) error {
	var refused *netguard.RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return errors.New("timed out")
	}
	return err
}
