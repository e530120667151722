package extract

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

// Stage as sites state it, whoever wrote them:
//   - a beta that is over: "after a year in closed beta", "efter ett år i
//     sluten beta", "ベータ版を経て" say the product is out now (launched), and
//     the beta word in them is the past, never the stage;
//   - a status pill: "Now generally available" standing alone is the site's
//     own banner, like "Now in beta";
//   - traction whatever the noun: "Trusted by more than 2,300 marinas";
//   - "We have been profitable since 2021";
//   - a news or changelog entry dated by a sibling element (a Webflow
//     collection item: a date div beside a title link) is the past.

// afterBetaRe: a span of time spent in beta, after which the product is out.
var afterBetaRe = lazyMustCompile(`(?i)(?:\bbeta\b[^.;]{0,80}\b(?:then|and|before)\s+(?:\S+\s+){0,2}(?:launched|released|opened)\b[^.;]{0,40}\b(?:publicly|to everyone|to the public|generally)\b` +
	`|\b(?:after|following)\s+(?:\S+\s+){0,2}(?:years?|months?|weeks?|seasons?|summers?|winters?|springs?|autumns?|quarters?)\s+(?:of|in)\s+(?:\S+\s+){0,2}beta\b` +
	`|\befter\s+(?:\S+\s+){0,2}(?:år|månader|månad|veckor)\s+(?:i|med)\s+(?:\S+\s+){0,2}beta\b` +
	`|\bnach\s+(?:\S+\s+){0,2}(?:jahren?|monaten?|wochen)\s+(?:in\s+der\s+)?(?:\S+\s+){0,2}beta` +
	`|\baprès\s+(?:\S+\s+){0,2}(?:ans?|années?|mois|semaines)\s+(?:de|en)\s+(?:\S+\s+){0,2}bêta` +
	`|\b(?:tras|después de)\s+(?:\S+\s+){0,2}(?:años?|meses|mes|semanas)\s+(?:de|en)\s+(?:\S+\s+){0,2}beta` +
	`|\bdopo\s+(?:\S+\s+){0,2}(?:anni|anno|mesi|mese|settimane)\s+(?:di|in)\s+(?:\S+\s+){0,2}beta` +
	`|\bna\s+(?:\S+\s+){0,2}(?:jaar|maanden|maand|weken)\s+(?:in\s+)?(?:\S+\s+){0,2}(?:bèta|beta)` +
	`|\bpo\s+(?:\S+\s+){0,2}(?:roku|latach|miesiącach|miesiącu|tygodniach)\s+(?:w\s+)?(?:\S+\s+){0,2}(?:becie|beta)` +
	`|(?:β版|ベータ版?|ベータテスト)[^。]{0,12}を経て|经过[^。]{0,12}(?:公测|内测|测试)|經過[^。]{0,12}(?:公測|內測|測試)|베타[^.]{0,12}(?:를|을)?\s?거쳐)`)

// profitableRe: a company that says it is profitable ("We have been
// profitable since 2021"), said of itself (weak).
var profitableRe = lazyMustCompile(`(?i)\b(?:have|has|we've|we’ve)\s+been\s+profitable\b|\bprofitable since (?:19|20)\d\d\b|\bprofitable from (?:day one|the start)\b`)

// tractionAnyRe: "used by / trusted by more than N <any noun>", "N+ <noun>
// run on / use X": the count says who uses the product whatever the noun;
// from 1,000 on it is growing (a smaller count of an unknown noun says
// nothing: "2 million people" is not two).
var tractionAnyRe = lazyMustCompile(`(?i)\b(?:used|trusted|loved|chosen|relied on)(?: daily)? by (?:more than |over |)` + countPattern + ` \p{L}{3,}` +
	`|(?:^|[^\p{L}\d.,])` + countPattern + ` \p{L}{3,}(?: \p{L}{3,})? (?:already )?(?:run on|rely on|use|trust)\b`)

// statusPrefix: the words a status pill puts before its status ("Now
// generally available", "Now officially live").
var statusPrefix = lazyMustCompile(`(?i)^\s*(?:now|is now|currently|now officially|officially|finally)\s*$`)

func init() {
	// after the traction counts, before the launch patterns and the betas
	i := slices.IndexFunc(stagePatterns, func(p struct {
		slug string
		re   *lazyRegexp
		weak bool
		min  int
	}) bool {
		return p.slug == "launched"
	})
	type pat = struct {
		slug string
		re   *lazyRegexp
		weak bool
		min  int
	}
	add := []pat{
		{"growing", tractionAnyRe, false, 1000},
		{"launched", afterBetaRe, false, 0},
	}
	stagePatterns = slices.Insert(stagePatterns, i, add...)
	// profitable stays second (after acquired)
	j := slices.IndexFunc(stagePatterns, func(p pat) bool { return p.slug == "profitable" })
	stagePatterns = slices.Insert(stagePatterns, j+1, pat{"profitable", profitableRe, true, 0})
	// "coming soon" said of the product or standing alone; "The Android app
	// is coming soon" is a feature's (was a strong pre-launch pattern)
	stagePatterns = append(stagePatterns, pat{"pre-launch", comingSoonRe, true, 0})
}

// pastBeta reports whether the beta a line names is one the product is
// past ("after a year in closed beta").
func pastBeta(t string) bool {
	return afterBetaRe.MatchString(t)
}

// statusBanner reports whether sent is a short status line whose words
// before the match are only a status's ("Now generally available").
func statusBanner(sent string, at int) bool {
	return len(strings.Fields(sent)) <= 6 && at <= len(sent) && statusPrefix.MatchString(sent[:at])
}

// datedBySibling reports whether a line is an entry of a dated list whose
// date stands in an element of its own beside it ("<div class=news-date>12
// March 2024</div><a>Public beta opens</a>"): the line's node, or its
// parent, has a sibling element whose whole text is a date.
func datedBySibling(n *html.Node) bool {
	// the line's block holding a date block of its own ("<div
	// role=listitem><div>12 March 2024</div><a>…</a></div>": the line is the
	// item's text outside the date)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && blockTags[c.DataAtom] && onlyDate(c) {
			return true
		}
	}
	for a, depth := n, 0; a != nil && depth < 2; a, depth = a.Parent, depth+1 {
		for _, sib := range []*html.Node{siblingElement(a, -1), siblingElement(a, 1)} {
			if sib != nil && onlyDate(sib) {
				return true
			}
		}
	}
	return false
}

// onlyDate reports whether an element's whole text is a date.
func onlyDate(n *html.Node) bool {
	t := domain.NormalizeSpace(nodeText(n))
	if t == "" || utf8.RuneCountInString(t) > 30 {
		return false
	}
	_, rest, ok := findDate(t, true)
	return ok && strings.TrimSpace(strings.Trim(rest, " ,.·|–—-")) == ""
}

// siblingElement is the element before (dir -1) or after (dir 1) n,
// across blank text; nil when text or nothing stands between.
func siblingElement(n *html.Node, dir int) *html.Node {
	next := func(x *html.Node) *html.Node {
		if dir < 0 {
			return x.PrevSibling
		}
		return x.NextSibling
	}
	for x := next(n); x != nil; x = next(x) {
		switch x.Type {
		case html.ElementNode:
			return x
		case html.TextNode:
			if strings.TrimSpace(x.Data) != "" {
				return nil
			}
		}
	}
	return nil
}

// launchSoonMore: a launch still ahead in Japanese, Chinese and Korean
// ("2026年春リリース予定", "即将上线", "2026년 봄 출시 예정"), read only beside
// a form that takes an e-mail address (an app "coming" on a launched
// product's page has none).
var launchSoonMore = lazyMustCompile(`リリース予定|公開予定|提供開始予定|ローンチ予定|近日公開|即将上线|即将推出|即將上線|即將推出|敬请期待|敬請期待|출시 예정|오픈 예정|런칭 예정|출시 알림`)

// comingSoonRe: "coming soon", a pre-launch stage only when said of the
// product ("Acme is coming soon") or as a banner ("Coming soon").
var comingSoonRe = lazyMustCompile(`(?i)\bcoming soon\b`)
