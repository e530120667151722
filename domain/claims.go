package domain

import (
	"context"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"
)

// Claims: a signed-in user proves control of a public listing's domain and
// becomes a co-owner of it (docs/claims.md). The rules the JSON Schema cannot
// express live here; the checks of verify_claim are in claims_check.go.

// Claim methods.
const (
	ClaimDNS   = "dns"
	ClaimMeta  = "meta"
	ClaimFile  = "file"
	ClaimEmail = "email"
)

// Claim statuses. A pending claim past its expiry reads as expired.
const (
	ClaimPending  = "pending"
	ClaimVerified = "verified"
	ClaimExpired  = "expired"
	ClaimReplaced = "replaced"
)

// What a claimant publishes, and where.
const (
	// ClaimDNSLabel is the label under the listing's domain that holds the TXT record.
	ClaimDNSLabel = "_launchdir-claim"
	// ClaimMetaName is the name of the homepage meta tag, and the prefix of the TXT value.
	ClaimMetaName = "launchdir-claim"
	// ClaimFilePath is the file on the listing's site whose body is the token.
	ClaimFilePath = "/.well-known/launchdir-claim.txt"
	// ClaimConfirmPath is where an emailed link leads (ClaimConfirmPath + token).
	ClaimConfirmPath = "/claims/confirm/"
	// ClaimDays is how long a claim (and an emailed link) stays valid.
	ClaimDays = 7
	// ClaimResendAfter is how soon the same email claim may mail a new link.
	ClaimResendAfter = 10 * time.Minute
)

// ClaimListingInput is the body of claim_listing.
type ClaimListingInput struct {
	Slug   string `json:"slug" jsonschema:"required,maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"The slug of a public (scheduled or live) listing, as search_listings and get_listing show it."`
	Method string `json:"method" jsonschema:"required,enum=dns,enum=meta,enum=file,enum=email" jsonschema_description:"How you prove control of the listing's domain: dns (a TXT record), meta (a tag in the homepage head), file (a file under /.well-known/), email (a link mailed to an address at the domain)."`
	Email  string `json:"email,omitempty" jsonschema:"format=email,maxLength=254" jsonschema_description:"For method email only (required there): an address at the listing's own registrable domain or a subdomain of it, e.g. founder@example.com for example.com or app.example.com."`
}

// VerifyClaimInput names one of the caller's claims.
type VerifyClaimInput struct {
	ClaimID int64 `json:"claim_id" jsonschema:"minimum=1" jsonschema_description:"The claim's id (claim_listing and list_my_claims return it)."`
}

// ListMyClaimsInput pages the caller's claims.
type ListMyClaimsInput struct {
	Pagination
}

// Claim is a claim as its claimant sees it.
type Claim struct {
	ID          int64  `json:"id" jsonschema_description:"The claim_id for verify_claim."`
	Slug        string `json:"slug"`
	ListingName string `json:"listing_name"`
	// ListingID is set once the claim is verified: the listing is the claimant's.
	ListingID int64  `json:"listing_id,omitempty" jsonschema_description:"Once verified: the listing_id for get_my_listing and update_my_listing."`
	Method    string `json:"method" jsonschema:"enum=dns,enum=meta,enum=file,enum=email"`
	Status    string `json:"status" jsonschema:"enum=pending,enum=verified,enum=expired,enum=replaced" jsonschema_description:"pending (publish what instructions say, then verify_claim), verified (you are an owner), expired (claim again for a new token), replaced (a newer claim of yours for this listing counts instead)."`
	// Domain is the listing's domain the proof is for.
	Domain       string            `json:"domain"`
	Email        string            `json:"email,omitempty"`
	Instructions ClaimInstructions `json:"instructions"`
	CreatedAt    time.Time         `json:"created_at"`
	ExpiresAt    time.Time         `json:"expires_at" jsonschema_description:"A pending claim must be verified before this time."`
	VerifiedAt   *time.Time        `json:"verified_at,omitempty"`
	// LastCheck is the outcome of the last verify_claim that did not find the proof.
	LastCheck *ClaimCheck `json:"last_check,omitempty" jsonschema_description:"Pending claims checked before: the last check that did not find the proof (what was looked for, what was seen, what to fix)."`
	// Next says what to do now, in one sentence.
	Next string `json:"next"`

	// notYet marks a verify_claim answer whose check did not find the proof:
	// the claim stays pending, and the answer is Provisional.
	notYet bool
}

// Provisional implements Provisional: a verify_claim that found nothing yet
// is not kept for replay, so calling again with the same idempotency key
// checks again (docs/claims.md).
func (c *Claim) Provisional() bool { return c.notYet }

// ClaimInstructions say exactly what to publish for a claim.
type ClaimInstructions struct {
	// Text is the whole instruction in words.
	Text string `json:"text"`
	// Token is the claim's secret value (dns, meta, file).
	Token string `json:"token,omitempty"`
	// RecordType, RecordName and RecordValue are the DNS record (dns).
	RecordType  string `json:"record_type,omitempty"`
	RecordName  string `json:"record_name,omitempty"`
	RecordValue string `json:"record_value,omitempty"`
	// MetaTag is the tag to put in the head of PageURL (meta).
	MetaTag string `json:"meta_tag,omitempty"`
	PageURL string `json:"page_url,omitempty"`
	// FileURL is where the file must be served, with FileBody as its body (file).
	FileURL  string `json:"file_url,omitempty"`
	FileBody string `json:"file_body,omitempty"`
	// MailedTo and MailedAt say where and when the link went (email).
	MailedTo string     `json:"mailed_to,omitempty"`
	MailedAt *time.Time `json:"mailed_at,omitempty"`
}

// ClaimCheck is the outcome of a check of a dns, meta or file claim that
// did not find the proof (a found proof verifies the claim instead).
type ClaimCheck struct {
	CheckedAt time.Time      `json:"checked_at"`
	Found     bool           `json:"found" jsonschema_description:"Whether the proof was found: false here, as a found proof verifies the claim."`
	LookedFor ClaimLookedFor `json:"looked_for"`
	Seen      ClaimSeen      `json:"seen"`
	Message   string         `json:"message" jsonschema_description:"What was found and what to fix, in words for the person."`
}

// ClaimLookedFor is where a check looked and what it wanted to find there.
type ClaimLookedFor struct {
	Kind  string `json:"kind" jsonschema:"enum=dns_txt,enum=meta_tag,enum=file" jsonschema_description:"dns_txt: a TXT record; meta_tag: a meta tag in the homepage head; file: a line of the claim file."`
	Where string `json:"where" jsonschema_description:"The DNS name (dns_txt) or the URL (meta_tag, file) that was read."`
	Value string `json:"value" jsonschema_description:"What must be there: the TXT value, the meta tag, or the token as a line of the file."`
}

// ClaimSeen is what a check saw where it looked.
type ClaimSeen struct {
	URL         string   `json:"url,omitempty" jsonschema_description:"meta_tag, file: the address read, after redirects on the same host."`
	HTTPStatus  int      `json:"http_status,omitempty" jsonschema_description:"meta_tag, file: the HTTP status of the answer, when there was one."`
	Values      []string `json:"values" jsonschema_description:"What was there, each clipped to 200 characters, at most 10: the TXT values at the name (dns_txt), the content of each launchdir-claim meta tag (meta_tag), the non-empty lines of the file (file). Empty when none."`
	BodyExcerpt string   `json:"body_excerpt,omitempty" jsonschema_description:"file: the start of the file's body (300 characters)."`
	Error       string   `json:"error,omitempty" jsonschema_description:"Why nothing could be read: a DNS failure (e.g. no such name), a refused or failed fetch, a status other than 2xx."`
}

// ClaimList is the answer of list_my_claims.
type ClaimList struct {
	Items []Claim `json:"items"`
	Page
}

// ClaimRecord is a stored claim with the listing it is for, as it is now.
type ClaimRecord struct {
	ID, ListingID, UserID int64
	Method, Status        string
	Token, Email          string
	// ClaimantEmail is the claimant's account address (for the confirm page and owners' mail).
	ClaimantEmail string
	MailedAt      *time.Time
	// Domain and HomeURL are the listing's when the claim was made.
	Domain, HomeURL string
	// LastCheck is the last check that did not find the proof, nil when none.
	LastCheck  *ClaimCheck
	CreatedAt  time.Time
	ExpiresAt  time.Time
	VerifiedAt *time.Time
	// The listing now.
	Slug, ListingName, ListingStatus, ListingURL, ListingDomain string
}

// ClaimableListing is a public listing someone may claim, as one user sees it.
type ClaimableListing struct {
	ID                 int64
	Slug, Name, Status string
	URL, Domain        string
	// CallerOwns: the user already owns the listing.
	CallerOwns bool
	// CallerPending is the user's pending claim of it (expired or not), or nil.
	CallerPending *ClaimRecord
}

// ClaimStore keeps claims. *storage.Store implements it.
type ClaimStore interface {
	// ClaimTarget returns the public (scheduled or live) listing slug, whether
	// userID already owns it, and userID's pending claim of it (nil when
	// none); ENotFound when no public listing has the slug.
	ClaimTarget(ctx context.Context, userID int64, slug string) (*ClaimableListing, error)
	// CreateClaim stores rec (pending) and sets its ID; the user's earlier
	// pending claim of the listing becomes replaced (expired when past its
	// expiry), in the same transaction.
	CreateClaim(ctx context.Context, rec *ClaimRecord) error
	// SetClaimLink records a new mailed link of an email claim.
	SetClaimLink(ctx context.Context, id int64, linkHash string, mailedAt time.Time) error
	// UserClaim returns userID's claim id; ENotFound worded the same when it
	// is missing or someone else's.
	UserClaim(ctx context.Context, userID, id int64) (*ClaimRecord, error)
	// LinkClaim returns the email claim whose link secret hashes to linkHash.
	LinkClaim(ctx context.Context, linkHash string) (*ClaimRecord, error)
	// UserClaims lists userID's claims, newest first.
	UserClaims(ctx context.Context, userID int64, offset, limit int) ([]ClaimRecord, int, error)
	// RecordClaimCheck keeps the outcome of a check of a pending claim that
	// did not find the proof.
	RecordClaimCheck(ctx context.Context, id int64, c ClaimCheck) error
	// VerifyClaim marks a pending claim verified, adds the claimant to the
	// listing's owners (unless they are its submitter) and marks the listing
	// verified, in one transaction. It returns the addresses of the listing's
	// other owners, and false when the claim was no longer pending. events
	// (claim.verified) are written in that transaction for every owner of the
	// listing, the claimant included.
	VerifyClaim(ctx context.Context, id int64, at time.Time, events ...ListingEventFunc) (owners []string, changed bool, err error)
}

func (s *Service) claimStore() (ClaimStore, error) {
	if s.Claims == nil {
		return nil, Errorf(EInternal, "claims are not configured")
	}
	return s.Claims, nil
}

// claimDomain is the domain a listing is claimed by: its domain column, or
// the host of its URL without www.
func claimDomain(domain, rawURL string) string {
	d := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(domain), "."))
	if d == "" {
		if u, err := url.Parse(rawURL); err == nil {
			d = strings.ToLower(u.Hostname())
		}
	}
	return strings.TrimPrefix(d, "www.")
}

// RegistrableDomain is the domain an owner's address must be at: the public
// suffix plus one label of domain (example.com for app.example.com,
// foo.github.io for foo.github.io), or domain itself when it has none.
func RegistrableDomain(domain string) string {
	r, err := publicsuffix.EffectiveTLDPlusOne(domain)
	if err != nil {
		return domain
	}
	return r
}

// checkClaimEmail validates the address of an email claim against domain.
func checkClaimEmail(email, domain string) (string, error) {
	addr, err := mail.ParseAddress(email)
	at := strings.LastIndexByte(email, '@')
	if err != nil || addr.Address != email || at < 1 {
		return "", Invalid("email", "format", "email: %q is not an email address; send a bare address such as founder@%s.", email, RegistrableDomain(domain))
	}
	host := strings.ToLower(email[at+1:])
	reg := RegistrableDomain(domain)
	if host != reg && !strings.HasSuffix(host, "."+reg) {
		return "", Invalid("email", "domain", "email: %s is not at the listing's domain; use an address at %s or a subdomain of it "+
			"(the listing's site is %s), or claim with method dns, meta or file.", email, reg, domain)
	}
	return strings.ToLower(email[:at]) + "@" + host, nil
}

// ClaimListing starts a claim of a public listing: a token to publish (dns,
// meta, file) or a link mailed to an address at the listing's domain (email).
func (s *Service) ClaimListing(ctx context.Context, in ClaimListingInput) (*Claim, error) {
	c, st, err := callerWith(ctx, s.claimStore)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Method == ClaimEmail && in.Email == "":
		return nil, Invalid("email", "required", "email: method email needs email, an address at the listing's domain; the link to confirm is mailed there.")
	case in.Method != ClaimEmail && in.Email != "":
		return nil, Invalid("email", "not_allowed", "email is for method email only; leave it out for method %s.", in.Method)
	}
	var mailer Mailer
	if in.Method == ClaimEmail {
		o, err := s.owning()
		if err != nil {
			return nil, err
		}
		if mailer = o.Mailer; mailer == nil {
			return nil, Errorf(EInternal, "mail is not configured")
		}
	}
	l, err := st.ClaimTarget(ctx, c.UserID, in.Slug)
	if err != nil {
		return nil, err
	}
	domain := claimDomain(l.Domain, l.URL)
	if domain == "" || l.URL == "" {
		return nil, Errorf(EConflict, "%s has no website address, so there is no domain to prove; ask the site team.", l.Name)
	}
	email := ""
	if in.Method == ClaimEmail {
		if email, err = checkClaimEmail(in.Email, domain); err != nil {
			return nil, err
		}
	}
	if l.CallerOwns {
		return nil, Errorf(EConflict, "You already own %s: list_my_listings shows it; there is nothing to claim.", l.Name)
	}
	now := s.now().Truncate(time.Second)
	if p := l.CallerPending; p != nil && now.Before(p.ExpiresAt) && p.Method == in.Method && p.Email == email &&
		p.Domain == domain && p.HomeURL == l.URL {
		// The same claim again: the token stays, so what was published still counts.
		if in.Method == ClaimEmail && (p.MailedAt == nil || now.Sub(*p.MailedAt) >= ClaimResendAfter) {
			if err := s.mailClaimLink(ctx, st, mailer, c, p, l.Name); err != nil {
				return nil, err
			}
		}
		return s.claimView(p), nil
	}
	rec := &ClaimRecord{ListingID: l.ID, UserID: c.UserID, Method: in.Method, Status: ClaimPending, Email: email,
		ClaimantEmail: c.Email, Domain: domain, HomeURL: l.URL, CreatedAt: now, ExpiresAt: now.AddDate(0, 0, ClaimDays),
		Slug: l.Slug, ListingName: l.Name, ListingStatus: l.Status, ListingURL: l.URL, ListingDomain: l.Domain}
	if in.Method != ClaimEmail {
		rec.Token = NewSecret("")
	}
	if err := st.CreateClaim(ctx, rec); err != nil {
		return nil, err
	}
	if in.Method == ClaimEmail {
		if err := s.mailClaimLink(ctx, st, mailer, c, rec, l.Name); err != nil {
			return nil, err
		}
	}
	return s.claimView(rec), nil
}

// mailClaimLink mails a new confirm link of an email claim; the previous
// link stops working.
func (s *Service) mailClaimLink(ctx context.Context, st ClaimStore, m Mailer, c Caller, rec *ClaimRecord, name string) error {
	secret := NewSecret("")
	now := s.now().Truncate(time.Second)
	who := c.Email
	if c.Name != "" {
		who = c.Name + " (" + c.Email + ")"
	}
	body := fmt.Sprintf("%s asked to become an owner of %s on %s, and gave this address to prove that they speak for %s.\n\n"+
		"If that is right, open this link and press Confirm:\n%s\n\n"+
		"Confirming lets %s edit the listing as a co-owner. The link works until %s UTC. If you do not know about this, ignore this message: nothing changes.\n",
		who, name, s.SiteNow(ctx).Name, rec.Domain, s.Site.In(ctx).URL(ClaimConfirmPath+secret), c.Email, rec.ExpiresAt.Format("2006-01-02 15:04"))
	// The link is stored before it is mailed, so a mailed link always works.
	if err := st.SetClaimLink(ctx, rec.ID, SecretHash(secret), now); err != nil {
		return err
	}
	if err := m.SendMail(ctx, rec.Email, fmt.Sprintf("Confirm the claim of %s on %s", name, s.SiteNow(ctx).Name), body); err != nil {
		return fmt.Errorf("send claim link: %w", err)
	}
	rec.MailedAt = &now
	return nil
}

// VerifyClaim checks a pending dns, meta or file claim and, when the proof
// is found, makes the caller an owner of the listing.
func (s *Service) VerifyClaim(ctx context.Context, in VerifyClaimInput) (*Claim, error) {
	c, st, err := callerWith(ctx, s.claimStore)
	if err != nil {
		return nil, err
	}
	rec, err := st.UserClaim(ctx, c.UserID, in.ClaimID)
	if err != nil {
		return nil, err
	}
	if err := s.claimOpen(rec); err != nil {
		if rec.Status == ClaimVerified {
			return s.claimView(rec), nil
		}
		return nil, err
	}
	if rec.Method == ClaimEmail {
		return nil, Errorf(EConflict, "Claim %d is verified by email: open the link mailed to %s and press Confirm. "+
			"To get a new link, call claim_listing again with the same address (at most every %d minutes).",
			rec.ID, rec.Email, int(ClaimResendAfter/time.Minute))
	}
	o, err := s.owning()
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	check := s.checkClaim(ctx, o, rec, now)
	if check.Found {
		return s.completeClaim(ctx, st, rec, now)
	}
	// Not found (yet): a 200 with the claim still pending and what was seen,
	// not an error; the person fixes it and calls again.
	if err := st.RecordClaimCheck(ctx, rec.ID, check); err != nil {
		return nil, err
	}
	rec.LastCheck = &check
	v := s.claimView(rec)
	v.notYet = true
	return v, nil
}

// claimOpen says why rec cannot be verified now, nil when it is pending and
// still about the listing as it is.
func (s *Service) claimOpen(rec *ClaimRecord) error {
	switch {
	case rec.Status == ClaimVerified:
		return Errorf(EConflict, "Claim %d is already verified: %s is yours (list_my_listings).", rec.ID, rec.ListingName)
	case rec.Status == ClaimReplaced:
		return Errorf(EConflict, "Claim %d was replaced by a newer claim of yours for %s; list_my_claims shows it.", rec.ID, rec.ListingName)
	case rec.Status == ClaimExpired || !s.now().Before(rec.ExpiresAt):
		return Errorf(EConflict, "Claim %d expired on %s UTC; call claim_listing again for a new one (the old token no longer counts).",
			rec.ID, rec.ExpiresAt.Format("2006-01-02 15:04"))
	case rec.ListingStatus != ListingScheduled && rec.ListingStatus != ListingLive:
		return Errorf(EConflict, "%s is no longer public, so it cannot be claimed now.", rec.ListingName)
	case claimDomain(rec.ListingDomain, rec.ListingURL) != rec.Domain || rec.ListingURL != rec.HomeURL:
		return Errorf(EConflict, "%s moved to %s since claim %d was made for %s; call claim_listing again for the new address.",
			rec.ListingName, rec.ListingURL, rec.ID, rec.HomeURL)
	}
	return nil
}

// completeClaim verifies rec and tells the listing's other owners.
func (s *Service) completeClaim(ctx context.Context, st ClaimStore, rec *ClaimRecord, now time.Time) (*Claim, error) {
	owners, changed, err := st.VerifyClaim(ctx, rec.ID, now, s.claimVerifiedEvent(rec, now))
	if err != nil {
		return nil, err
	}
	if !changed { // verified at the same moment by another call
		again, err := st.UserClaim(ctx, rec.UserID, rec.ID)
		if err != nil {
			return nil, err
		}
		if again.Status == ClaimVerified {
			return s.claimView(again), nil
		}
		return nil, s.claimOpen(again)
	}
	rec.Status, rec.VerifiedAt = ClaimVerified, &now
	if s.Owner != nil && s.Owner.Mailer != nil {
		body := fmt.Sprintf("%s proved control of %s (by %s) and is now a co-owner of %s on %s: they can edit it as you can.\n\n"+
			"If this is wrong, reply to the site team.\n", rec.ClaimantEmail, rec.Domain, claimMethodWords(rec.Method), rec.ListingName, s.SiteNow(ctx).Name)
		for _, to := range owners {
			// The claim is verified either way; a failed notice is not the
			// claimant's error (it is in the outbox when mail is configured so).
			_ = s.Owner.Mailer.SendMail(ctx, to, fmt.Sprintf("%s has a new co-owner", rec.ListingName), body)
		}
	}
	return s.claimView(rec), nil
}

func claimMethodWords(m string) string {
	switch m {
	case ClaimDNS:
		return "a DNS record"
	case ClaimMeta:
		return "a tag on the homepage"
	case ClaimFile:
		return "a file on the site"
	}
	return "an email to an address at the domain"
}

// ListMyClaims lists the caller's claims, newest first.
func (s *Service) ListMyClaims(ctx context.Context, in ListMyClaimsInput) (*ClaimList, error) {
	c, st, err := callerWith(ctx, s.claimStore)
	if err != nil {
		return nil, err
	}
	recs, total, err := st.UserClaims(ctx, c.UserID, in.Offset(), in.Limit())
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	out := &ClaimList{Items: []Claim{}, Page: NewPage(page, per, total)}
	for i := range recs {
		out.Items = append(out.Items, *s.claimView(&recs[i]))
	}
	return out, nil
}

// claimView is the claimant's view of rec: status as of now, instructions
// and the next step.
func (s *Service) claimView(rec *ClaimRecord) *Claim {
	v := &Claim{ID: rec.ID, Slug: rec.Slug, ListingName: rec.ListingName, Method: rec.Method, Status: rec.Status,
		Domain: rec.Domain, Email: rec.Email, CreatedAt: rec.CreatedAt, ExpiresAt: rec.ExpiresAt, VerifiedAt: rec.VerifiedAt}
	if v.Status == ClaimPending && !s.now().Before(rec.ExpiresAt) {
		v.Status = ClaimExpired
	}
	v.LastCheck = rec.LastCheck
	v.Instructions = claimInstructions(rec)
	id := strconv.FormatInt(rec.ID, 10)
	switch v.Status {
	case ClaimVerified:
		v.ListingID = rec.ListingID
		v.Next = "Verified: you are an owner of " + rec.ListingName + ". get_my_listing with listing_id " +
			strconv.FormatInt(rec.ListingID, 10) + " shows it; update_my_listing edits it. Verified is not paid: the plan is unchanged."
	case ClaimExpired:
		v.Next = "Expired: call claim_listing again for a new claim."
	case ClaimReplaced:
		v.Next = "Replaced by a newer claim of yours for this listing (see list_my_claims)."
	default:
		if rec.Method == ClaimEmail {
			v.Next = "Open the link mailed to " + rec.Email + " and press Confirm before " + rec.ExpiresAt.Format("2006-01-02 15:04") + " UTC."
		} else if rec.LastCheck != nil {
			v.Next = "Not found yet: last_check says what was looked for, what was seen and what to fix. The claim stays pending until " +
				rec.ExpiresAt.Format("2006-01-02 15:04") + " UTC; fix it, then call verify_claim with claim_id " + id + " again."
		} else {
			v.Next = "Publish what instructions say, then call verify_claim with claim_id " + id + " (before " +
				rec.ExpiresAt.Format("2006-01-02 15:04") + " UTC)."
		}
	}
	return v
}

// ClaimFileURL is the URL of the claim file of a site whose homepage is home.
func ClaimFileURL(home string) string {
	u, err := url.Parse(home)
	if err != nil || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: ClaimFilePath}).String()
}

func claimInstructions(rec *ClaimRecord) ClaimInstructions {
	switch rec.Method {
	case ClaimDNS:
		name, value := ClaimDNSLabel+"."+rec.Domain, ClaimMetaName+"="+rec.Token
		return ClaimInstructions{Token: rec.Token, RecordType: "TXT", RecordName: name, RecordValue: value,
			Text: fmt.Sprintf("Add a DNS TXT record named %s with the value %s (in a DNS panel that appends the domain, enter the name %s). "+
				"Other TXT records there may stay. Then call verify_claim; new records can take a few minutes to be seen.", name, value, ClaimDNSLabel)}
	case ClaimMeta:
		tag := fmt.Sprintf(`<meta name="%s" content="%s">`, ClaimMetaName, rec.Token)
		return ClaimInstructions{Token: rec.Token, MetaTag: tag, PageURL: rec.HomeURL,
			Text: fmt.Sprintf("Put %s inside the <head> of the page at %s (the listing's homepage; redirects may stay on the same host only). Then call verify_claim.", tag, rec.HomeURL)}
	case ClaimFile:
		u := ClaimFileURL(rec.HomeURL)
		return ClaimInstructions{Token: rec.Token, FileURL: u, FileBody: rec.Token,
			Text: fmt.Sprintf("Serve a file at %s whose body is exactly %s (plain text; one token per line if several people claim the site). "+
				"Redirects may stay on the same host only. Then call verify_claim.", u, rec.Token)}
	}
	in := ClaimInstructions{MailedTo: rec.Email, MailedAt: rec.MailedAt}
	if rec.MailedAt != nil {
		in.Text = fmt.Sprintf("A link was mailed to %s at %s UTC. Open it and press Confirm on its page; there is nothing to publish. "+
			"No mail? Call claim_listing again with the same address for a new link (at most every %d minutes).",
			rec.Email, rec.MailedAt.Format("2006-01-02 15:04"), int(ClaimResendAfter/time.Minute))
	} else {
		in.Text = fmt.Sprintf("The link to %s could not be mailed yet; call claim_listing again with the same address.", rec.Email)
	}
	return in
}
