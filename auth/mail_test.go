package auth_test

import (
	"context"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
)

// smtpBody is the decoded text body of a message the test SMTP server got.
func smtpBody(t *testing.T, m siSMTPMessage) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(m.data))
	if err != nil {
		t.Fatalf("message does not parse: %v\n%s", err, m.data)
	}
	body := msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(msg.Body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// TestMailSMTPOutboxKeepsNoSecretLink: with SMTP configured, every mail
// with a secret link (sign-in, co-founder invite, email claim) reaches the
// SMTP server with its live link, and the outbox row read back through the
// store afterwards keeps the message with the secret masked. The link from
// the delivered mail still signs in.
func TestMailSMTPOutboxKeepsNoSecretLink(t *testing.T) {
	t.Parallel()
	srv := siStartSMTP(t, "", "")
	m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), From: "Launchdir <login@example.com>"})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(c *auth.Config) { c.Mailer = m })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// Sign-in, through the page.
	b := e.browser()
	resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/signin", url.Values{"email": {"smtp@example.com"}, "next": {"/account"}}, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	// Invite and claim links, as domain mails them through SendMail.
	secret := strings.Repeat("Zx9_-", 8) + "abc"
	for _, path := range []string{domain.InvitePath + "/", domain.ClaimConfirmPath} {
		if err := e.auth.SendMail(ctx, "smtp@example.com", "Link "+path, "Open this link:\n"+e.srv.URL+path+secret+"\n\nThanks.\n"); err != nil {
			t.Fatal(err)
		}
	}

	got := srv.received()
	if len(got) != 3 {
		t.Fatalf("SMTP server received %d messages, want 3", len(got))
	}
	link := siLinkRE.FindString(smtpBody(t, got[0]))
	if link == "" {
		t.Fatalf("no sign-in link in the delivered mail:\n%s", smtpBody(t, got[0]))
	}
	for i, path := range []string{domain.InvitePath + "/", domain.ClaimConfirmPath} {
		if want := e.srv.URL + path + secret + "\n"; !strings.Contains(smtpBody(t, got[i+1]), want) {
			t.Errorf("delivered mail lacks the live link %s:\n%s", want, smtpBody(t, got[i+1]))
		}
	}

	token := strings.TrimPrefix(link, e.srv.URL+"/signin/email?token=")
	mails := e.siOutbox("smtp@example.com")
	if len(mails) != 3 {
		t.Fatalf("outbox has %d messages, want 3", len(mails))
	}
	for _, m := range mails {
		if strings.Contains(m.Body, token) || strings.Contains(m.Body, secret) || strings.Contains(m.Body, secret[:12]) {
			t.Errorf("outbox keeps a live secret after sending by SMTP:\n%s", m.Body)
		}
		if !strings.Contains(m.Body, "[secret removed: sent by SMTP]") {
			t.Errorf("outbox message does not say the secret was removed:\n%s", m.Body)
		}
	}

	resp, body = siDo(t, b, http.MethodGet, link, nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
}

// TestMailInvalidDomainIsNotSent: a message to an address at the reserved
// domain .invalid (the demo data's people) is kept in the outbox but neither
// handed to the mailer nor written to the log: it can never be delivered,
// and a fresh demo's award notices would bury the log.
func TestMailInvalidDomainIsNotSent(t *testing.T) {
	t.Parallel()
	const to = "maya.fischer@people.launchdir.invalid"
	for _, smtp := range []bool{false, true} {
		var logs siLogBuffer
		rec := &siRecordingMailer{}
		e := newEnv(t, func(c *auth.Config) {
			c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c.MailLog = &logs
			if smtp {
				c.Mailer = rec
			}
		})
		for _, addr := range []string{to, "Someone@Example.INVALID"} {
			if err := e.auth.SendMail(context.Background(), addr, "Your launch won", "Notewise is Launch of the Week #1.\n"); err != nil {
				t.Fatalf("smtp %v: SendMail(%s) = %v", smtp, addr, err)
			}
		}
		if len(rec.sent) != 0 {
			t.Errorf("smtp %v: the mailer got %d messages to .invalid", smtp, len(rec.sent))
		}
		if out := logs.String(); strings.Contains(strings.ToLower(out), ".invalid") {
			t.Errorf("smtp %v: the log names a .invalid recipient:\n%s", smtp, out)
		}
		if got := e.siOutbox(to); len(got) != 1 || got[0].Subject != "Your launch won" {
			t.Errorf("smtp %v: outbox for %s = %+v, want the message kept", smtp, to, got)
		}
		if err := e.auth.SendMail(context.Background(), "maya@example.com", "Your launch won", "Hello.\n"); err != nil || smtp && len(rec.sent) != 1 {
			t.Errorf("smtp %v: a deliverable address: %v, mailer got %d", smtp, err, len(rec.sent))
		}
	}
}
