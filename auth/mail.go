package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/launchdir/launchdir/domain"
)

// Outbox delivers the service's mail, sign-in links and the Service's own
// (co-founder invites, claim confirmations, ...): a message is always
// added to the outbox table (Store.AddMail), then handed to Transport when
// one is set. Without a transport (the embedded default, for local use) the
// outbox is the mailbox: it keeps the message as sent, secret links
// included, and the message is also written to the log, as that is where a
// person running the service locally reads it. With a transport the outbox
// keeps the message with the secret part of every secret link masked
// (maskSecretLinks), so no live link is at rest, and the log names the
// recipient and subject only. A message to an undeliverable address is kept
// in the outbox only. It implements domain.Mailer; it is built before the
// Service and auth, which both send through it.
type Outbox struct {
	// Store keeps the outbox table.
	Store interface {
		AddMail(ctx context.Context, m Mail) (int64, error)
	}
	// Transport sends the message on (SMTP); nil: the outbox and the log only.
	Transport Mailer
	// MailLog, without a Transport, receives each message in full as plain
	// text after its log record, so that a link stands alone on a line and
	// can be copied (serve passes stderr). nil puts the body into the log
	// record instead (quoted, with escaped newlines).
	MailLog io.Writer
	// Logger is required.
	Logger *slog.Logger
	// Now is the clock, required.
	Now func() time.Time
}

// SendMail delivers one message (see Outbox).
func (o *Outbox) SendMail(ctx context.Context, to, subject, body string) error {
	kept := body
	if o.Transport != nil {
		kept = maskSecretLinks(body)
	}
	id, err := o.Store.AddMail(ctx, Mail{To: to, Subject: subject, Body: kept, CreatedAt: o.Now()})
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if undeliverable(to) {
		return nil // kept in the outbox; there is nobody to send it to
	}
	if o.Transport == nil {
		if o.MailLog == nil {
			o.Logger.Info("mail written to the outbox (no SMTP configured)", "to", to, "subject", subject, "outbox_id", id, "body", body)
			return nil
		}
		o.Logger.Info("mail written to the outbox (no SMTP configured); the message follows", "to", to, "subject", subject, "outbox_id", id)
		o.writeMailLog(to, subject, body)
		return nil
	}
	if err := o.Transport.Send(ctx, to, subject, body); err != nil {
		return err
	}
	o.Logger.Info("mail sent", "to", to, "subject", subject, "outbox_id", id)
	return nil
}

// undeliverable reports whether to is at a domain that can never receive
// mail: the reserved top-level domain .invalid (RFC 2606, RFC 6761), where the
// demo data's people have their addresses (docs/demo.md).
func undeliverable(to string) bool {
	d := strings.ToLower(strings.TrimSuffix(to[strings.LastIndexByte(to, '@')+1:], "."))
	return d == "invalid" || strings.HasSuffix(d, ".invalid")
}

// secretLinkPaths are the paths of the links the service mails whose last
// part is a secret that works by itself: sign-in, co-founder invite, email
// claim confirmation (and checkout, should one ever be mailed).
var secretLinkPaths = []string{
	"/signin/email?token=",
	domain.InvitePath + "/",
	domain.ClaimConfirmPath,
	domain.CheckoutPath,
}

// maskedSecret replaces the secret of a link in the outbox of a service
// that sends mail by SMTP.
const maskedSecret = "[secret removed: sent by SMTP]"

// maskSecretLinks returns body with the secret after every secret link
// path (a run of base64url characters) replaced by maskedSecret.
func maskSecretLinks(body string) string {
	for _, p := range secretLinkPaths {
		var b strings.Builder
		rest := body
		for {
			i := strings.Index(rest, p)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			i += len(p)
			b.WriteString(rest[:i])
			rest = rest[i:]
			n := strings.IndexFunc(rest, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
			})
			if n < 0 {
				n = len(rest)
			}
			if n > 0 {
				b.WriteString(maskedSecret)
			}
			rest = rest[n:]
		}
		body = b.String()
	}
	return body
}

// writeMailLog writes a message to MailLog as plain lines between two
// rulers, in one write: every line of the body, a link included, stands on
// its own.
func (o *Outbox) writeMailLog(to, subject, body string) {
	var b strings.Builder
	fmt.Fprintf(&b, "----- mail to %s: %s -----\n", to, subject)
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteString("\n----- end of mail -----\n")
	_, _ = io.WriteString(o.MailLog, b.String()) // a log for development: nothing to do if it fails
}

// SendMail delivers a message from another part of the service through
// the outbox sign-in mail goes through. It implements domain.Mailer.
func (a *Auth) SendMail(ctx context.Context, to, subject, body string) error {
	return a.outbox.SendMail(ctx, to, subject, body)
}

// SMTPConfig configures NewSMTPMailer.
type SMTPConfig struct {
	Host string
	// Port 465 uses implicit TLS; any other port (default 587) STARTTLS,
	// which is required unless Host is a loopback address (a local relay).
	Port               int
	Username, Password string // no authentication when Username is ""
	From               string // the sender address, e.g. "Launchdir <login@example.com>"
}

// smtpMailer sends through an SMTP server with github.com/wneessen/go-mail.
type smtpMailer struct {
	cfg  SMTPConfig
	from string
	opts []gomail.Option
}

// NewSMTPMailer returns a Mailer that sends plain-text messages through the
// SMTP server of c. TLS is mandatory (implicit on port 465, else STARTTLS)
// except to a loopback host, where STARTTLS is used when offered. With a
// username, the strongest mechanism the server offers is used (PLAIN and
// LOGIN only over TLS).
func NewSMTPMailer(c SMTPConfig) (Mailer, error) {
	if c.Host == "" {
		return nil, errors.New("smtp: no host")
	}
	if c.Port == 0 {
		c.Port = 587
	}
	if c.Port < 0 || c.Port > 65535 {
		return nil, fmt.Errorf("smtp: bad port %d", c.Port)
	}
	from, err := mail.ParseAddress(c.From)
	if err != nil {
		return nil, fmt.Errorf("smtp: bad from address %q: %w", c.From, err)
	}
	opts := []gomail.Option{gomail.WithPort(c.Port), gomail.WithTimeout(20 * time.Second)}
	switch {
	case c.Port == 465:
		opts = append(opts, gomail.WithSSL())
	case smtpLoopbackHost(c.Host):
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if c.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(c.Username), gomail.WithPassword(c.Password))
	}
	if _, err := gomail.NewClient(c.Host, opts...); err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	return &smtpMailer{cfg: c, from: from.String(), opts: opts}, nil
}

// Send sends one message. A client is made per message (go-mail clients
// keep per-connection state), so Send may be called concurrently.
func (m *smtpMailer) Send(ctx context.Context, to, subject, body string) error {
	msg := gomail.NewMsg()
	if err := msg.From(m.from); err != nil {
		return fmt.Errorf("smtp: from: %w", err)
	}
	if err := msg.To(to); err != nil {
		return fmt.Errorf("smtp: to: %w", err)
	}
	msg.Subject(subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, body)
	c, err := gomail.NewClient(m.cfg.Host, m.opts...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: send to %s: %w", to, err)
	}
	return nil
}

func smtpLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
