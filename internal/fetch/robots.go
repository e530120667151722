package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/temoto/robotstxt"

	"github.com/launchdir/launchdir/internal/netguard"
)

// robotsRules is what one host's robots.txt lets us read, after RFC 9309:
// a 2xx file is parsed; 4xx (no file) allows everything; 5xx, 429 and an
// unreachable host forbid everything for now (Temporary).
type robotsRules struct {
	url  string                // the robots.txt URL
	data *robotstxt.RobotsData // nil: everything is forbidden
	why  string                // when data is nil: why, for people
	temp bool                  // when data is nil: asking again later may help (5xx, 429)
	fail *failure              // when the host could not be reached or was refused
}

// allows reports whether the rules let RobotsAgent read u.
func (r *robotsRules) allows(u *url.URL) bool {
	if r.data == nil {
		return false
	}
	p := u.EscapedPath()
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return r.data.TestAgent(p, RobotsAgent)
}

// robotsCache reads each host's robots.txt once per crawl, however many
// pages (and concurrent workers) ask for it.
type robotsCache struct {
	c  *crawl
	mu sync.Mutex
	m  map[string]*robotsEntry
}

type robotsEntry struct {
	once  sync.Once
	rules *robotsRules
}

// rulesFor returns the rules of u's scheme, host and port.
func (rc *robotsCache) rulesFor(u *url.URL) *robotsRules {
	key := u.Scheme + "://" + u.Host
	rc.mu.Lock()
	e := rc.m[key]
	if e == nil {
		e = &robotsEntry{}
		rc.m[key] = e
	}
	rc.mu.Unlock()
	e.once.Do(func() { e.rules = rc.c.readRobots(key + "/robots.txt") })
	return e.rules
}

// readRobots fetches and parses one robots.txt through the guarded client.
// Its redirects are followed (RFC 9309 asks for at least five); too many
// count as no file.
func (c *crawl) readRobots(robotsURL string) *robotsRules {
	r := &robotsRules{url: robotsURL}
	ctx, cancel := context.WithTimeout(c.ctx, c.f.opts.PageTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, policyKey{}, policy{})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		r.why = "its URL is not valid"
		return r
	}
	req.Header.Set("User-Agent", c.f.opts.UserAgent)
	req.Header.Set("Accept", "text/plain,*/*;q=0.5")
	resp, err := c.client.Do(req)
	var tooMany *redirectsError
	switch {
	case errors.As(err, &tooMany):
		r.data, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
		return r
	case err != nil:
		r.fail = c.classify(err, robotsURL)
		var ref *netguard.RefusedError
		if !errors.As(err, &ref) {
			r.fail.Message = fmt.Sprintf("%s could not be read (%s); RFC 9309 says to read nothing of the site until it can", robotsURL, r.fail.Message)
		}
		r.why = "it could not be read"
		return r
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, robotsMaxBytes))
	if err != nil && resp.StatusCode/100 == 2 {
		r.fail = c.classify(err, robotsURL)
		r.fail.Message = fmt.Sprintf("%s could not be read (%s); RFC 9309 says to read nothing of the site until it can", robotsURL, r.fail.Message)
		r.why = "it could not be read"
		return r
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode/100 == 5:
		// 429 is a server asking us to slow down, not a missing file: like Google, treat it as 5xx.
		r.why = fmt.Sprintf("it answered %s, which RFC 9309 says forbids everything until it answers again", resp.Status)
		r.temp = true
		return r
	case resp.StatusCode/100 == 2:
		if r.data, err = parseRobots(body); err != nil {
			r.why = "it could not be parsed"
		}
		return r
	default: // 4xx: no robots.txt; 1xx, 3xx without a target: unavailable, the same
		r.data, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
		return r
	}
}

// parseRobots parses the body of a robots.txt answered 2xx: as it is, or
// else only its lines lenientRobots keeps.
func parseRobots(body []byte) (*robotstxt.RobotsData, error) {
	data, err := robotstxt.FromBytes(body)
	if err != nil {
		data, err = robotstxt.FromBytes(lenientRobots(body))
	}
	return data, err
}

// lenientRobots keeps the lines the library can always parse, for a file it
// refused: RFC 9309 asks crawlers to use the lines they can parse, and what
// the library refuses (a rule before any User-agent, an invalid Crawl-delay)
// are lines the RFC ignores anyway.
func lenientRobots(body []byte) []byte {
	var out []string
	agent := false
	for _, line := range strings.Split(string(body), "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "user-agent":
			agent = true
			out = append(out, line)
		case "allow", "disallow":
			if agent {
				out = append(out, line)
			}
		case "sitemap":
			out = append(out, line)
		}
	}
	return []byte(strings.Join(out, "\n"))
}
