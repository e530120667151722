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
// /.well-known/ file. Each answers "" when the proof is found, else a
// message saying what was found and what to fix.

// checkClaim looks for the proof of a dns, meta or file claim: "" when it is
// found, else what was found and what to fix.
func (s *Service) checkClaim(ctx context.Context, o *Owning, rec *ClaimRecord) string {
	switch rec.Method {
	case ClaimDNS:
		return checkClaimDNS(ctx, o.Resolver, rec)
	case ClaimMeta:
		return checkClaimMeta(ctx, o.Pages, rec)
	case ClaimFile:
		return checkClaimFile(ctx, o.Pages, rec)
	}
	return fmt.Sprintf("Claims by %s are not checked here.", rec.Method)
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

func checkClaimDNS(ctx context.Context, r TXTResolver, rec *ClaimRecord) string {
	name, want := ClaimDNSLabel+"."+rec.Domain, ClaimMetaName+"="+rec.Token
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	txts, err := r.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	switch {
	case err != nil && errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return fmt.Sprintf("No TXT record was found at %s (the DNS answered that the name has none). Add a TXT record named %s "+
			"with the value %s; a record on another name, such as %s itself, does not count.", name, name, want, rec.Domain)
	case err != nil:
		return fmt.Sprintf("The DNS lookup of %s failed (%s); if the record was just added, try again in a few minutes.", name, lookupWhy(err))
	}
	for _, t := range txts {
		if claimValue(t) == want {
			return ""
		}
	}
	if len(txts) == 0 {
		return fmt.Sprintf("No TXT record was found at %s. Add a TXT record named %s with the value %s.", name, name, want)
	}
	return fmt.Sprintf("The TXT records at %s are %s; none is this claim's value %s. Change the record to exactly that value "+
		"(each claim has its own token).", name, quoteAll(txts), want)
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

// fetchProblem says why a page of the claimed site could not be read.
func fetchProblem(ctx context.Context, u string, err error, fix string) string {
	var ce *CrawlError
	if errors.As(err, &ce) {
		return fmt.Sprintf("Could not read %s: %s. %s", u, ce.Message, fix)
	}
	if ctx.Err() != nil {
		return fmt.Sprintf("Could not read %s in time; try again.", u)
	}
	return fmt.Sprintf("Could not read %s. %s", u, fix)
}

func checkClaimMeta(ctx context.Context, p PageFetcher, rec *ClaimRecord) string {
	tag := fmt.Sprintf(`<meta name="%s" content="%s">`, ClaimMetaName, rec.Token)
	page, err := p.FetchPage(ctx, rec.HomeURL, FetchPageOptions{SameHost: true})
	if err != nil {
		return fetchProblem(ctx, rec.HomeURL, err, "The homepage must answer 200 with HTML at this address (redirects only on the same host) and carry "+tag+" in its head.")
	}
	vals := page.Meta[ClaimMetaName]
	for _, v := range vals {
		if claimValue(v) == rec.Token {
			return ""
		}
	}
	if len(vals) == 0 {
		return fmt.Sprintf("The page %s has no <meta name=%q> in its head. Put %s inside <head> of the HTML the server sends "+
			"(a tag added later by JavaScript is not seen).", page.URL, ClaimMetaName, tag)
	}
	return fmt.Sprintf("The page %s has <meta name=%q> with content %s, not this claim's token. Change it to %s "+
		"(each claim has its own token).", page.URL, ClaimMetaName, quoteAll(vals), tag)
}

func checkClaimFile(ctx context.Context, p PageFetcher, rec *ClaimRecord) string {
	u := ClaimFileURL(rec.HomeURL)
	page, err := p.FetchPage(ctx, u, FetchPageOptions{SameHost: true, AnyType: true})
	if err != nil {
		return fetchProblem(ctx, u, err, "Upload the file so that this address answers 200 (redirects only on the same host) with the token "+rec.Token+" as its body.")
	}
	body := strings.TrimSpace(page.Body)
	for _, line := range strings.Split(body, "\n") {
		if claimValue(line) == rec.Token {
			return ""
		}
	}
	if body == "" {
		return fmt.Sprintf("The file %s is empty. Its body must be the token %s.", page.URL, rec.Token)
	}
	return fmt.Sprintf("The file %s holds %s, not this claim's token. Its body must be %s (one token per line if several people claim the site).",
		page.URL, strconv.Quote(clip(body)), rec.Token)
}
