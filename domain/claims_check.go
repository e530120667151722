package domain

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// The checks of verify_claim: a DNS TXT record, a homepage meta tag, a
// /.well-known/ file. Each returns a ClaimCheck: Found, or what was looked
// for, what was seen there and a message saying what to fix.

// Bounds of what a check reports as seen.
const (
	claimSeenValues  = 10  // values listed
	claimSeenValue   = 200 // characters of one value
	claimSeenExcerpt = 300 // characters of the file body excerpt
)

// checkClaim looks for the proof of a dns, meta or file claim at now.
func (s *Service) checkClaim(ctx context.Context, o *Owning, rec *ClaimRecord, now time.Time) ClaimCheck {
	var c ClaimCheck
	switch rec.Method {
	case ClaimDNS:
		c = checkClaimDNS(ctx, o.Resolver, rec)
	case ClaimMeta:
		c = checkClaimMeta(ctx, o.Pages, rec)
	case ClaimFile:
		c = checkClaimFile(ctx, o.Pages, rec)
	default:
		c.Message = fmt.Sprintf("Claims by %s are not checked here.", rec.Method)
	}
	c.CheckedAt = now
	if c.Seen.Values == nil {
		c.Seen.Values = []string{}
	}
	return c
}

// seenValues are vals as reported: clipped, at most claimSeenValues.
func seenValues(vals []string) []string {
	out := []string{}
	for _, v := range vals {
		if len(out) == claimSeenValues {
			break
		}
		out = append(out, clipTo(v, claimSeenValue))
	}
	return out
}

// clipTo shortens v to n characters (runes), marking the cut.
func clipTo(v string, n int) string {
	v = strings.TrimSpace(v)
	if r := []rune(v); len(r) > n {
		return string(r[:n]) + "…"
	}
	return v
}

// claimValue is a published value as compared: spaces and quotes around it
// (as some DNS panels keep them) do not count.
func claimValue(v string) string { return strings.Trim(strings.TrimSpace(v), `"'`) }

// clip shortens a found value for a message.
func clip(v string) string {
	v = strings.TrimSpace(v)
	if r := []rune(v); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return v
}

func quoteAll(vals []string) string {
	q := make([]string, 0, len(vals))
	for i, v := range vals {
		if i == 5 {
			q = append(q, fmt.Sprintf("and %d more", len(vals)-5))
			break
		}
		q = append(q, strconv.Quote(clip(v)))
	}
	return strings.Join(q, ", ")
}

func checkClaimDNS(ctx context.Context, r TXTResolver, rec *ClaimRecord) ClaimCheck {
	name, want := ClaimDNSLabel+"."+rec.Domain, ClaimMetaName+"="+rec.Token
	c := ClaimCheck{LookedFor: ClaimLookedFor{Kind: "dns_txt", Where: name, Value: want}}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	txts, err := r.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	switch {
	case err != nil && errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		c.Seen.Error = "no such name"
		c.Message = fmt.Sprintf("No TXT record was found at %s (the DNS answered that the name has none). Add a TXT record named %s "+
			"with the value %s; a record on another name, such as %s itself, does not count.", name, name, want, rec.Domain)
		return c
	case err != nil:
		c.Seen.Error = lookupWhy(err)
		c.Message = fmt.Sprintf("The DNS lookup of %s failed (%s); if the record was just added, try again in a few minutes.", name, c.Seen.Error)
		return c
	}
	c.Seen.Values = seenValues(txts)
	for _, t := range txts {
		if claimValue(t) == want {
			c.Found = true
			return c
		}
	}
	if len(txts) == 0 {
		c.Message = fmt.Sprintf("No TXT record was found at %s. Add a TXT record named %s with the value %s.", name, name, want)
		return c
	}
	c.Message = fmt.Sprintf("The TXT records at %s are %s; none is this claim's value %s. Change the record to exactly that value "+
		"(each claim has its own token).", name, quoteAll(txts), want)
	return c
}

// lookupWhy is a DNS error without the resolver's address.
func lookupWhy(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsTimeout {
			return "no answer in time"
		}
		return dnsErr.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	return "lookup error"
}

// fetchProblem records in c why a page of the claimed site could not be
// read: the HTTP status when it answered other than 2xx, and the message.
func fetchProblem(ctx context.Context, c *ClaimCheck, u string, err error, fix string) {
	c.Seen.URL = u
	var ce *CrawlError
	switch {
	case errors.As(err, &ce):
		c.Seen.HTTPStatus, c.Seen.Error = ce.HTTPStatus, ce.Message
		c.Message = fmt.Sprintf("Could not read %s: %s. %s", u, ce.Message, fix)
	case ctx.Err() != nil:
		c.Seen.Error = "no answer in time"
		c.Message = fmt.Sprintf("Could not read %s in time; try again.", u)
	default:
		c.Seen.Error = "could not be read"
		c.Message = fmt.Sprintf("Could not read %s. %s", u, fix)
	}
}

func checkClaimMeta(ctx context.Context, p PageFetcher, rec *ClaimRecord) ClaimCheck {
	tag := fmt.Sprintf(`<meta name="%s" content="%s">`, ClaimMetaName, rec.Token)
	c := ClaimCheck{LookedFor: ClaimLookedFor{Kind: "meta_tag", Where: rec.HomeURL, Value: tag}}
	page, err := p.FetchPage(ctx, rec.HomeURL, FetchPageOptions{SameHost: true})
	if err != nil {
		fetchProblem(ctx, &c, rec.HomeURL, err, "The homepage must answer 200 with HTML at this address (redirects only on the same host) and carry "+tag+" in its head.")
		return c
	}
	vals := page.Meta[ClaimMetaName]
	c.Seen.URL, c.Seen.HTTPStatus, c.Seen.Values = page.URL, page.Status, seenValues(vals)
	for _, v := range vals {
		if claimValue(v) == rec.Token {
			c.Found = true
			return c
		}
	}
	if len(vals) == 0 {
		c.Message = fmt.Sprintf("The page %s has no <meta name=%q> in its head. Put %s inside <head> of the HTML the server sends "+
			"(a tag added later by JavaScript is not seen).", page.URL, ClaimMetaName, tag)
		return c
	}
	c.Message = fmt.Sprintf("The page %s has <meta name=%q> with content %s, not this claim's token. Change it to %s "+
		"(each claim has its own token).", page.URL, ClaimMetaName, quoteAll(vals), tag)
	return c
}

func checkClaimFile(ctx context.Context, p PageFetcher, rec *ClaimRecord) ClaimCheck {
	u := ClaimFileURL(rec.HomeURL)
	c := ClaimCheck{LookedFor: ClaimLookedFor{Kind: "file", Where: u, Value: rec.Token}}
	page, err := p.FetchPage(ctx, u, FetchPageOptions{SameHost: true, AnyType: true})
	if err != nil {
		fetchProblem(ctx, &c, u, err, "Upload the file so that this address answers 200 (redirects only on the same host) with the token "+rec.Token+" as its body.")
		return c
	}
	body := strings.TrimSpace(page.Body)
	c.Seen.URL, c.Seen.HTTPStatus, c.Seen.BodyExcerpt = page.URL, page.Status, clipTo(body, claimSeenExcerpt)
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
		if claimValue(line) == rec.Token {
			c.Found = true
		}
	}
	if c.Seen.Values = seenValues(lines); c.Found {
		return c
	}
	if body == "" {
		c.Message = fmt.Sprintf("The file %s is empty. Its body must be the token %s.", page.URL, rec.Token)
		return c
	}
	c.Message = fmt.Sprintf("The file %s holds %s, not this claim's token. Its body must be %s (one token per line if several people claim the site).",
		page.URL, strconv.Quote(clip(body)), rec.Token)
	return c
}
