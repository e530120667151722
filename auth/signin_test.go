package auth_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/launchdir/launchdir/auth"
)

// --- helpers shared by the sign-in and account tests ---

// do sends a request and returns the response with its body read.
func siDo(t *testing.T, c *http.Client, method, u string, form url.Values, header http.Header) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func siWantStatus(t *testing.T, resp *http.Response, body string, want int) {
	t.Helper()
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d; body:\n%s", resp.Request.Method, resp.Request.URL, resp.StatusCode, want, body)
	}
}

// siWantPageHeaders checks the headers every page carries.
func siWantPageHeaders(t *testing.T, resp *http.Response) {
	t.Helper()
	h := resp.Header
	if h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("%s: X-Frame-Options = %q", resp.Request.URL.Path, h.Get("X-Frame-Options"))
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("%s: Content-Security-Policy = %q", resp.Request.URL.Path, h.Get("Content-Security-Policy"))
	}
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("%s: Cache-Control = %q", resp.Request.URL.Path, h.Get("Cache-Control"))
	}
}

// sessionCookie returns the browser's session cookie value ("" if none).
func (e *env) siSessionCookie(b *http.Client) string {
	u, _ := url.Parse(e.srv.URL)
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == "launchdir_session" {
			return c.Value
		}
	}
	return ""
}

// outbox returns the messages sent to addr, newest first.
func (e *env) siOutbox(addr string) []auth.Mail {
	e.t.Helper()
	m, err := e.store.Outbox(context.Background(), addr, 100)
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

var siLinkRE = regexp.MustCompile(`http://[^/\s]+/signin/email\?token=[A-Za-z0-9_-]+`)

// siRequestLink posts the sign-in form and returns the emailed link.
func (e *env) siRequestLink(b *http.Client, addr, next string) string {
	e.t.Helper()
	before := len(e.siOutbox(addr))
	resp, body := siDo(e.t, b, http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}, "next": {next}}, nil)
	siWantStatus(e.t, resp, body, http.StatusOK)
	mails := e.siOutbox(addr)
	if len(mails) != before+1 {
		e.t.Fatalf("outbox for %s has %d messages, want %d", addr, len(mails), before+1)
	}
	link := siLinkRE.FindString(mails[0].Body)
	if link == "" || !strings.HasPrefix(link, e.srv.URL+"/signin/email?token=") {
		e.t.Fatalf("no sign-in link in mail body:\n%s", mails[0].Body)
	}
	return link
}

// --- email link sign-in ---

func TestSignInEmailLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := e.browser()

	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/signin?next=/v1/launches", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	siWantPageHeaders(t, resp)
	if !strings.Contains(body, `name="email"`) || !strings.Contains(body, `value="/v1/launches"`) {
		t.Fatalf("sign-in form lacks the email field or next:\n%s", body)
	}
	if strings.Contains(body, "/signin/oidc") {
		t.Error("sign-in page offers OpenID Connect without a provider")
	}

	const addr = "Person@Example.com"
	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}, "next": {"/v1/launches?page=2"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	siWantPageHeaders(t, resp)
	if !strings.Contains(body, "Check your email") || !strings.Contains(body, addr) {
		t.Fatalf("sent page:\n%s", body)
	}
	mails := e.siOutbox(addr)
	if len(mails) != 1 || mails[0].To != addr {
		t.Fatalf("outbox = %+v, want one mail to %s", mails, addr)
	}
	link := siLinkRE.FindString(mails[0].Body)
	if link == "" {
		t.Fatalf("no link in body:\n%s", mails[0].Body)
	}
	if e.siSessionCookie(b) != "" {
		t.Fatal("a session cookie before the link was used")
	}

	resp, body = siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/v1/launches?page=2" {
		t.Fatalf("Location = %q, want the next path", loc)
	}
	var set bool
	for _, c := range resp.Cookies() {
		if c.Name == "launchdir_session" && c.Value != "" && c.HttpOnly && c.SameSite == http.SameSiteLaxMode {
			set = true
		}
	}
	if !set {
		t.Fatalf("no HttpOnly SameSite=Lax session cookie set: %v", resp.Header["Set-Cookie"])
	}

	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, addr) {
		t.Fatalf("account page does not show %s:\n%s", addr, body)
	}
	u, err := e.store.UserByEmail(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	if u.Issuer != auth.EmailIssuer || u.Subject != "person@example.com" || u.Email != addr {
		t.Errorf("user = %+v, want email issuer, lower-cased subject", u)
	}

	// Single use, even from a fresh browser.
	resp, body = siDo(t, e.browser(), http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	siWantPageHeaders(t, resp)
	if resp.Header.Get("Location") != "" {
		t.Error("a used link redirects")
	}

	// Unknown and missing tokens.
	for _, q := range []string{"?token=nope", "", "?token="} {
		resp, body = siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/signin/email"+q, nil, nil)
		siWantStatus(t, resp, body, http.StatusBadRequest)
	}
}

func TestSignInEmailLinkExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := e.browser()
	link := e.siRequestLink(b, "late@example.com", "/account")
	e.advance(16 * time.Minute)
	resp, body := siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	if e.siSessionCookie(b) != "" {
		t.Error("an expired link signed in")
	}
}

func TestSignInNoOpenRedirect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for i, next := range []string{"//evil.example", "https://evil.example", "/\\evil.example", "http:evil.example", "", "javascript:alert(1)", "///evil.example"} {
		b := e.browser()
		link := e.siRequestLink(b, fmt.Sprintf("redirect%d@example.com", i), next)
		resp, body := siDo(t, b, http.MethodGet, link, nil, nil)
		siWantStatus(t, resp, body, http.StatusSeeOther)
		if loc := resp.Header.Get("Location"); loc != "/account" {
			t.Errorf("next=%q: Location = %q, want /account", next, loc)
		}
	}
	// The form does not echo an unsafe next either.
	resp, body := siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/signin?next="+url.QueryEscape("//evil.example"), nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if strings.Contains(body, "evil.example") {
		t.Error("sign-in form carries an unsafe next")
	}
}

func TestSignInRotatesSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, _ := e.signedIn("before@example.com")
	old := e.siSessionCookie(b)
	if old == "" {
		t.Fatal("no session cookie")
	}
	link := e.siRequestLink(b, "after@example.com", "/account")
	resp, body := siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if now := e.siSessionCookie(b); now == "" || now == old {
		t.Fatalf("session cookie did not rotate (%q → %q)", old, now)
	}
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "after@example.com") {
		t.Error("account page does not show the new user")
	}

	// The old session value no longer works.
	stale := e.browser()
	u, _ := url.Parse(e.srv.URL)
	stale.Jar.SetCookies(u, []*http.Cookie{{Name: "launchdir_session", Value: old, Path: "/"}})
	resp, body = siDo(t, stale, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/signin?") {
		t.Errorf("stale session: Location = %q", loc)
	}
	if _, err := e.store.SessionByHash(context.Background(), auth.Hash(old), e.clock()); err == nil {
		t.Error("the old session still exists")
	}
}

func TestSignInCrossOriginRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for _, h := range []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Origin": {"https://evil.example"}},
	} {
		resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"x@example.com"}}, h)
		siWantStatus(t, resp, body, http.StatusForbidden)
	}
	if m := e.siOutbox(""); len(m) != 0 {
		t.Errorf("cross-origin sign-in sent %d mails", len(m))
	}
	// Same-origin browsers are fine.
	resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"x@example.com"}},
		http.Header{"Sec-Fetch-Site": {"same-origin"}, "Origin": {e.srv.URL}})
	siWantStatus(t, resp, body, http.StatusOK)
}

func TestSignInBadAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for _, addr := range []string{"", "not-an-address", "a@", "Jane <jane@example.com>", "x@example.com, y@example.com",
		strings.Repeat("a", 250) + "@example.com", "a@b\r\nBcc: c@d"} {
		resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}, "next": {"/account"}}, nil)
		siWantStatus(t, resp, body, http.StatusBadRequest)
		siWantPageHeaders(t, resp)
		if !strings.Contains(body, "Enter") || !strings.Contains(body, `name="email"`) {
			t.Errorf("%q: no form with a message:\n%s", addr, body)
		}
	}
	if m := e.siOutbox(""); len(m) != 0 {
		t.Errorf("bad addresses sent %d mails", len(m))
	}
}

func TestSignInRateLimit(t *testing.T) {
	e := newEnv(t, nil)
	for i := range 5 {
		resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"busy@example.com"}}, nil)
		siWantStatus(t, resp, body, http.StatusOK)
		_ = i
	}
	// Per address, whatever the case.
	resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"BUSY@example.com"}}, nil)
	siWantStatus(t, resp, body, http.StatusTooManyRequests)
	siWantPageHeaders(t, resp)
	if resp.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if n := len(e.siOutbox("busy@example.com")); n != 5 {
		t.Errorf("%d mails sent, want 5", n)
	}
	// Another address still works; the first again after the window.
	resp, body = siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"calm@example.com"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	e.advance(15 * time.Minute)
	resp, body = siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"busy@example.com"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)

	// Per remote IP: 20 in a window, across addresses.
	e2 := newEnv(t, nil)
	for i := range 20 {
		resp, body := siDo(t, e2.browser(), http.MethodPost, e2.srv.URL+"/signin", url.Values{"email": {fmt.Sprintf("p%d@example.com", i)}}, nil)
		siWantStatus(t, resp, body, http.StatusOK)
	}
	resp, body = siDo(t, e2.browser(), http.MethodPost, e2.srv.URL+"/signin", url.Values{"email": {"p99@example.com"}}, nil)
	siWantStatus(t, resp, body, http.StatusTooManyRequests)
}

func TestSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, _ := e.signedIn("out@example.com")
	raw := e.siSessionCookie(b)

	resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/signout", url.Values{"csrf": {"wrong"}}, nil)
	siWantStatus(t, resp, body, http.StatusForbidden)
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)

	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/signout", url.Values{"csrf": {auth.CSRFToken(raw)}},
		http.Header{"Sec-Fetch-Site": {"cross-site"}})
	siWantStatus(t, resp, body, http.StatusForbidden)

	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/signout", url.Values{"csrf": {auth.CSRFToken(raw)}}, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/" {
		t.Errorf("Location = %q", loc)
	}
	if _, err := e.store.SessionByHash(context.Background(), auth.Hash(raw), e.clock()); err == nil {
		t.Error("session survives sign-out")
	}
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
}

// --- mail ---

// siLogBuffer is a log destination safe for the server's goroutines.
type siLogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *siLogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *siLogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Without a mailer (the embedded default) the sign-in link is in the log,
// where a person running the service locally reads it.
func TestMailDefaultOutboxWritesLinkToLog(t *testing.T) {
	t.Parallel()
	var logs siLogBuffer
	e := newEnv(t, func(c *auth.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	link := e.siRequestLink(e.browser(), "log@example.com", "/account")
	token := strings.TrimPrefix(link, e.srv.URL+"/signin/email?token=")
	out := logs.String()
	if !strings.Contains(out, "outbox") || !strings.Contains(out, "log@example.com") || !strings.Contains(out, token) {
		t.Errorf("log lacks the mail and its link:\n%s", out)
	}
}

// With a mailer (SMTP) the log names recipient and subject, never the link.
func TestMailConfiguredLogsNoToken(t *testing.T) {
	t.Parallel()
	var logs siLogBuffer
	rec := &siRecordingMailer{}
	e := newEnv(t, func(c *auth.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.Mailer = rec
	})
	link := e.siMailedLink(rec, "log@example.com", "/account")
	token := strings.TrimPrefix(link, e.srv.URL+"/signin/email?token=")
	out := logs.String()
	if !strings.Contains(out, "mail sent") || !strings.Contains(out, "log@example.com") || !strings.Contains(out, "Sign in to Launchdir Test") {
		t.Errorf("log lacks the mail line:\n%s", out)
	}
	if strings.Contains(out, token) {
		t.Errorf("log contains the link token:\n%s", out)
	}
	resp, body := siDo(t, e.browser(), http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if strings.Contains(logs.String(), token) {
		t.Error("log contains the link token after sign-in")
	}
}

type siRecordingMailer struct {
	mu   sync.Mutex
	sent []auth.Mail
	err  error
}

func (m *siRecordingMailer) Send(_ context.Context, to, subject, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, auth.Mail{To: to, Subject: subject, Body: body})
	return m.err
}

func TestMailConfiguredMailerAndOutbox(t *testing.T) {
	t.Parallel()
	rec := &siRecordingMailer{}
	e := newEnv(t, func(c *auth.Config) { c.Mailer = rec })
	link := e.siMailedLink(rec, "smtp@example.com", "/account")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.sent) != 1 || rec.sent[0].To != "smtp@example.com" || !strings.Contains(rec.sent[0].Body, link) {
		t.Fatalf("mailer got %+v", rec.sent)
	}
}

// siMailedLink asks for a sign-in link for addr and returns the one rec
// sent (with a mailer the outbox keeps no live link).
func (e *env) siMailedLink(rec *siRecordingMailer, addr, next string) string {
	e.t.Helper()
	resp, body := siDo(e.t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}, "next": {next}}, nil)
	siWantStatus(e.t, resp, body, http.StatusOK)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.sent) == 0 {
		e.t.Fatal("nothing mailed")
	}
	link := siLinkRE.FindString(rec.sent[len(rec.sent)-1].Body)
	if link == "" {
		e.t.Fatalf("no sign-in link in the mailed body:\n%s", rec.sent[len(rec.sent)-1].Body)
	}
	return link
}

func TestMailFailureShowsError(t *testing.T) {
	t.Parallel()
	rec := &siRecordingMailer{err: fmt.Errorf("relay down")}
	e := newEnv(t, func(c *auth.Config) { c.Mailer = rec })
	resp, body := siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"down@example.com"}}, nil)
	siWantStatus(t, resp, body, http.StatusBadGateway)
	siWantPageHeaders(t, resp)
}

// siSMTPServer is a tiny SMTP server on loopback that records one message per
// transaction. With password set it offers AUTH CRAM-MD5 and requires it.
type siSMTPServer struct {
	ln       net.Listener
	user     string
	password string

	mu       sync.Mutex
	messages []siSMTPMessage
	authed   []string
}

type siSMTPMessage struct {
	from string
	to   []string
	data string
}

func siStartSMTP(t *testing.T, user, password string) *siSMTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &siSMTPServer{ln: ln, user: user, password: password}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *siSMTPServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *siSMTPServer) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	reply := func(format string, args ...any) { fmt.Fprintf(c, format+"\r\n", args...) }
	reply("220 localhost test ESMTP")
	var msg siSMTPMessage
	authed := s.password == ""
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO", "HELO":
			if s.password != "" {
				reply("250-localhost")
				reply("250-8BITMIME")
				reply("250 AUTH CRAM-MD5")
			} else {
				reply("250-localhost")
				reply("250 8BITMIME")
			}
		case "AUTH":
			challenge := "<12345.67890@localhost>"
			reply("334 %s", base64.StdEncoding.EncodeToString([]byte(challenge)))
			resp, err := r.ReadString('\n')
			if err != nil {
				return
			}
			dec, _ := base64.StdEncoding.DecodeString(strings.TrimSpace(resp))
			mac := hmac.New(md5.New, []byte(s.password))
			mac.Write([]byte(challenge))
			if string(dec) == s.user+" "+hex.EncodeToString(mac.Sum(nil)) {
				authed = true
				s.mu.Lock()
				s.authed = append(s.authed, s.user)
				s.mu.Unlock()
				reply("235 2.7.0 Authentication successful")
			} else {
				reply("535 5.7.8 Authentication failed")
			}
		case "MAIL":
			if !authed {
				reply("530 5.7.0 Authentication required")
				continue
			}
			msg = siSMTPMessage{from: line}
			reply("250 OK")
		case "RCPT":
			msg.to = append(msg.to, line)
			reply("250 OK")
		case "DATA":
			reply("354 End data with <CR><LF>.<CR><LF>")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			msg.data = data.String()
			s.mu.Lock()
			s.messages = append(s.messages, msg)
			s.mu.Unlock()
			reply("250 OK queued")
		case "QUIT":
			reply("221 Bye")
			return
		default: // NOOP, RSET
			reply("250 OK")
		}
	}
}

func (s *siSMTPServer) received() []siSMTPMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]siSMTPMessage(nil), s.messages...)
}

func siCheckSMTPMessage(t *testing.T, m siSMTPMessage, to, subject, wantBody string) {
	t.Helper()
	if !strings.Contains(m.from, "<login@example.com>") {
		t.Errorf("MAIL command = %q", m.from)
	}
	if len(m.to) != 1 || !strings.Contains(m.to[0], "<"+to+">") {
		t.Errorf("RCPT commands = %q", m.to)
	}
	msg, err := mail.ReadMessage(strings.NewReader(m.data))
	if err != nil {
		t.Fatalf("message does not parse: %v\n%s", err, m.data)
	}
	if got := msg.Header.Get("Subject"); got != subject {
		t.Errorf("Subject = %q, want %q", got, subject)
	}
	if got := msg.Header.Get("To"); !strings.Contains(got, to) {
		t.Errorf("To = %q", got)
	}
	if got := msg.Header.Get("From"); !strings.Contains(got, "login@example.com") {
		t.Errorf("From = %q", got)
	}
	body := msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(msg.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.ReplaceAll(string(b), "\r\n", "\n"); !strings.Contains(got, wantBody) {
		t.Errorf("body = %q, want it to contain %q", got, wantBody)
	}
}

func TestMailSMTP(t *testing.T) {
	t.Parallel()
	srv := siStartSMTP(t, "", "")
	m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), From: "Launchdir <login@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	link := "https://launchdir.example/signin/email?token=" + strings.Repeat("Ab_-", 11)
	body := "Hello,\n\nuse this link to sign in:\n\n" + link + "\n\nBye.\n"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Send(ctx, "reader@example.com", "Sign in to Launchdir", body); err != nil {
		t.Fatal(err)
	}
	got := srv.received()
	if len(got) != 1 {
		t.Fatalf("server received %d messages", len(got))
	}
	siCheckSMTPMessage(t, got[0], "reader@example.com", "Sign in to Launchdir", link)
}

func TestMailSMTPAuth(t *testing.T) {
	t.Parallel()
	srv := siStartSMTP(t, "mailer", "s3cret")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	bad, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), Username: "mailer", Password: "wrong", From: "login@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Send(ctx, "reader@example.com", "Hi", "Hello"); err == nil {
		t.Error("send with a wrong password succeeded")
	}

	m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), Username: "mailer", Password: "s3cret", From: "login@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, "reader@example.com", "Hi there", "Hello, world."); err != nil {
		t.Fatal(err)
	}
	got := srv.received()
	if len(got) != 1 {
		t.Fatalf("server received %d messages", len(got))
	}
	siCheckSMTPMessage(t, got[0], "reader@example.com", "Hi there", "Hello, world.")
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.authed) != 1 {
		t.Errorf("authenticated %d times, want 1", len(srv.authed))
	}
}

func TestMailSMTPConfigErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []auth.SMTPConfig{
		{From: "login@example.com"},
		{Host: "smtp.example.com", From: "not an address"},
		{Host: "smtp.example.com"},
		{Host: "smtp.example.com", Port: 70000, From: "login@example.com"},
	} {
		if _, err := auth.NewSMTPMailer(c); err == nil {
			t.Errorf("NewSMTPMailer(%+v) succeeded", c)
		}
	}
	if _, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "smtp.example.com", Port: 465, From: "login@example.com"}); err != nil {
		t.Error(err)
	}
}

// STARTTLS is required except to a loopback relay: "localhost" may go
// without it; "0.0.0.0" (not a loopback address, yet on Linux it reaches
// the same server) may not.
func TestMailSMTPTLSPolicy(t *testing.T) {
	t.Parallel()
	srv := siStartSMTP(t, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "localhost", Port: srv.port(), From: "login@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, "reader@example.com", "Local", "Via the local relay."); err != nil {
		t.Fatalf("send to a localhost relay without STARTTLS: %v", err)
	}
	if len(srv.received()) != 1 {
		t.Fatal("no message received")
	}

	m, err = auth.NewSMTPMailer(auth.SMTPConfig{Host: "0.0.0.0", Port: srv.port(), From: "login@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(ctx, "reader@example.com", "Remote", "Must not be sent in clear.")
	if err == nil {
		t.Fatal("sent without STARTTLS to a non-loopback host name")
	}
	if len(srv.received()) != 1 {
		t.Error("a message went through in clear")
	}
	if !strings.Contains(strings.ToUpper(err.Error()), "STARTTLS") {
		t.Skipf("0.0.0.0 does not reach the test server here: %v", err)
	}
}

// --- OpenID Connect ---

// siStartOIDC runs a mock OpenID Connect provider on loopback whose clock is
// the test env's.
func siStartOIDC(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// newEnv's clock starts at this instant; the provider signs tokens then.
	m.FastForward(time.Until(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)))
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown() })
	return m
}

func siNewOIDCEnv(t *testing.T) (*env, *mockoidc.MockOIDC) {
	m := siStartOIDC(t)
	cfg := m.Config()
	e := newEnv(t, func(c *auth.Config) {
		c.OIDC = &auth.OIDCProvider{Issuer: cfg.Issuer, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, Name: "MockID"}
	})
	return e, m
}

// siOIDCCallbackURL starts an OpenID Connect sign-in in b and follows it
// through the provider, returning the callback URL the provider sends the
// browser to.
func (e *env) siOIDCCallbackURL(b *http.Client, next string, wantRedirect string) string {
	e.t.Helper()
	resp, body := siDo(e.t, b, http.MethodGet, e.srv.URL+"/signin/oidc?next="+url.QueryEscape(next), nil, nil)
	siWantStatus(e.t, resp, body, http.StatusFound)
	authz, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		e.t.Fatal(err)
	}
	q := authz.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("nonce") == "" ||
		q.Get("state") == "" || q.Get("redirect_uri") != e.srv.URL+"/callback" || !strings.HasPrefix(authz.String(), wantRedirect) {
		e.t.Fatalf("authorization request = %s", authz)
	}
	resp, body = siDo(e.t, b, http.MethodGet, authz.String(), nil, nil)
	siWantStatus(e.t, resp, body, http.StatusFound)
	cb := resp.Header.Get("Location")
	if !strings.HasPrefix(cb, e.srv.URL+"/callback?") {
		e.t.Fatalf("provider redirected to %q", cb)
	}
	return cb
}

var siCSRFRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func TestOIDCSignIn(t *testing.T) {
	t.Parallel()
	e, m := siNewOIDCEnv(t)
	ctx := context.Background()
	// An email-link user with the provider's address exists already: the
	// provider's user is a different account (keyed by issuer and subject).
	emailUser, err := e.store.UpsertUser(ctx, auth.EmailIssuer, "jane.doe@example.com", "jane.doe@example.com", "", e.clock())
	if err != nil {
		t.Fatal(err)
	}

	b := e.browser()
	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/signin?next=/v1/me", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "Sign in with MockID") || !strings.Contains(body, "/signin/oidc?next=%2fv1%2fme") {
		t.Fatalf("no OpenID Connect button:\n%s", body)
	}

	cb := e.siOIDCCallbackURL(b, "/v1/me", m.AuthorizationEndpoint())
	resp, body = siDo(t, b, http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/v1/me" {
		t.Fatalf("Location = %q", loc)
	}
	if e.siSessionCookie(b) == "" {
		t.Fatal("no session")
	}

	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "jane.doe@example.com") {
		t.Fatalf("account page:\n%s", body)
	}
	// Which user is signed in: create a key through the page and verify it.
	cs := siCSRFRE.FindStringSubmatch(body)
	if cs == nil {
		t.Fatal("no csrf field")
	}
	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/account/keys", url.Values{"csrf": {cs[1]}, "name": {"oidc"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	key := siKeyRE.FindString(body)
	caller, err := e.auth.Verify(ctx, key, e.auth.MCPResource())
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.store.UserByID(ctx, caller.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Issuer != m.Issuer() || u.Subject != mockoidc.DefaultUser().Subject || u.Email != "jane.doe@example.com" {
		t.Errorf("signed-in user = %+v", u)
	}
	if u.ID == emailUser.ID {
		t.Error("OpenID Connect sign-in merged into the email user by address")
	}

	// Signing in again (with the provider's subject unchanged) is the same user.
	b2 := e.browser()
	resp, body = siDo(t, b2, http.MethodGet, e.siOIDCCallbackURL(b2, "/account", m.AuthorizationEndpoint()), nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	again, err := e.store.UpsertUser(ctx, m.Issuer(), mockoidc.DefaultUser().Subject, "jane.doe@example.com", u.Name, e.clock())
	if err != nil || again.ID != u.ID {
		t.Errorf("second sign-in user = %+v, %v; want id %d", again, err, u.ID)
	}
}

var siKeyRE = regexp.MustCompile(`ld_sk_[A-Za-z0-9_-]{43}`)

func TestOIDCWrongState(t *testing.T) {
	t.Parallel()
	e, m := siNewOIDCEnv(t)
	b := e.browser()
	cb := e.siOIDCCallbackURL(b, "/account", m.AuthorizationEndpoint())
	u, _ := url.Parse(cb)
	q := u.Query()
	good := q.Get("state")

	for _, state := range []string{auth.NewSecret(""), "", good + "x"} {
		q.Set("state", state)
		if state == "" {
			q.Del("state")
		}
		u.RawQuery = q.Encode()
		resp, body := siDo(t, b, http.MethodGet, u.String(), nil, nil)
		siWantStatus(t, resp, body, http.StatusBadRequest)
		siWantPageHeaders(t, resp)
		if resp.Header.Get("Location") != "" || e.siSessionCookie(b) != "" {
			t.Fatalf("state %q: signed in or redirected", state)
		}
	}

	// The right state from another browser (no binding cookie) fails, and
	// uses the state up.
	resp, body := siDo(t, e.browser(), http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	resp, body = siDo(t, b, http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
}

func TestOIDCReplayedCallback(t *testing.T) {
	t.Parallel()
	e, m := siNewOIDCEnv(t)
	b := e.browser()
	cb := e.siOIDCCallbackURL(b, "/account", m.AuthorizationEndpoint())
	resp, body := siDo(t, b, http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	first := e.siSessionCookie(b)

	// The same browser, cookie and all, replays the callback.
	resp, body = siDo(t, b, http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	if e.siSessionCookie(b) != first {
		t.Error("the replay changed the session")
	}
}

func TestOIDCExpiredState(t *testing.T) {
	t.Parallel()
	e, m := siNewOIDCEnv(t)
	b := e.browser()
	cb := e.siOIDCCallbackURL(b, "/account", m.AuthorizationEndpoint())
	e.advance(11 * time.Minute)
	resp, body := siDo(t, b, http.MethodGet, cb, nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
}

func TestOIDCProviderError(t *testing.T) {
	t.Parallel()
	e, m := siNewOIDCEnv(t)
	b := e.browser()
	cb := e.siOIDCCallbackURL(b, "/account", m.AuthorizationEndpoint())
	u, _ := url.Parse(cb)
	q := u.Query()
	q.Del("code")
	q.Set("error", "access_denied")
	u.RawQuery = q.Encode()
	resp, body := siDo(t, b, http.MethodGet, u.String(), nil, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	if e.siSessionCookie(b) != "" {
		t.Error("signed in after a provider error")
	}
}

func TestOIDCNotConfigured(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for _, p := range []string{"/signin/oidc", "/callback?state=x&code=y"} {
		resp, body := siDo(t, e.browser(), http.MethodGet, e.srv.URL+p, nil, nil)
		siWantStatus(t, resp, body, http.StatusNotFound)
	}
}

func TestOIDCProviderUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	e := newEnv(t, func(c *auth.Config) {
		c.OIDC = &auth.OIDCProvider{Issuer: dead, ClientID: "c", ClientSecret: "s", Name: "Dead"}
	})
	resp, body := siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/signin/oidc", nil, nil)
	siWantStatus(t, resp, body, http.StatusBadGateway)
	siWantPageHeaders(t, resp)
}

// TestSignIn_CookieLivesFromItsReceipt: the session cookie's lifetime is
// counted from when the browser receives it (Max-Age), not as a date on the
// server's clock (Expires). A browser whose clock differs from the server's
// (here the server's is 40 days behind, as a test's fixed clock falls behind
// the real date) still sends it; with an Expires date it dropped the cookie at
// once and the person was signed out by the sign-in itself.
func TestSignIn_CookieLivesFromItsReceipt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.clk.Set(time.Now().Add(-40 * 24 * time.Hour))
	b := e.browser()
	const addr = "late@example.com"
	resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {addr}, "next": {"/account"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	mails := e.siOutbox(addr)
	if len(mails) != 1 {
		t.Fatalf("outbox = %+v, want one mail", mails)
	}
	resp, body = siDo(t, b, http.MethodGet, siLinkRE.FindString(mails[0].Body), nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	var c *http.Cookie
	for _, rc := range resp.Cookies() {
		if rc.Name == "launchdir_session" && rc.Value != "" {
			c = rc
		}
	}
	if c == nil || c.MaxAge != int(auth.SessionTTL/time.Second) || !c.Expires.IsZero() {
		t.Fatalf("session cookie %v: want Max-Age %d and no Expires date", resp.Header["Set-Cookie"], int(auth.SessionTTL/time.Second))
	}
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, addr) {
		t.Fatalf("account page does not show %s:\n%.400s", addr, body)
	}
}
