package demo

import (
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Post is a blog post of the demo data; DaysAgo places it before `now`, at
// PublishedAt (set by Generate).
type Post struct {
	Slug, Title, Excerpt, Author string
	Tags                         []string
	DaysAgo                      int
	PublishedAt                  time.Time
	Markdown                     string
	FAQs                         []domain.FAQ
}

// posts are the ten blog posts of the demo data.
var posts = []Post{
	{Slug: "how-to-launch-on-launchdir", Title: "How to launch your product on Launchdir", Author: "Mara Lindqvist", DaysAgo: 3,
		Tags:    []string{"launching", "guide"},
		Excerpt: "From a website URL to a live listing: the steps, the two plans and what happens in launch week.",
		Markdown: `## From a URL to a listing

Launching here starts with one thing: your product's website address. Paste it, and the service reads your
site (it respects robots.txt) and drafts a profile in about a minute. Every drafted value comes with a
quote from your own pages, and facts your site does not state are **left blank, never invented**.

## Review the draft

Read the draft like an editor would:

1. Check the name, tagline and short description.
2. Pick the primary category; it decides which attributes your listing is compared on.
3. Fill in what the site did not say, such as the founding year or your city, or leave it blank.
4. Add founders, FAQs and socials.

## Choose how to launch

- **Free plan**: your listing joins the queue for a launch week 6 to 8 weeks out and goes live once our
  badge is found on your homepage.
- **Paid plan**: launch at once or in a week you choose, with optional extras. See
  [free or paid](/blog/free-vs-paid-launch) for the trade-offs.

## Launch week

Weeks run Monday to Sunday, UTC. Your launch is ranked by the community votes it gets during that week, and
the top three become [Launch of the Week](/awards). Votes come only from people on the site.`,
		FAQs: faqs("How long does drafting take?", "About a minute for most websites. Large sites may take a little longer.",
			"Can I edit the listing after it is live?", "Yes. You can edit fields, post updates and add milestones at any time.",
			"What if my website does not state a fact?", "It stays blank and is listed under not_found_on_website. You can fill it in yourself.")},
	{Slug: "free-vs-paid-launch", Title: "Free launch or paid launch: which one fits you?", Author: "Tomás Ferreira", DaysAgo: 11,
		Tags:    []string{"launching", "pricing"},
		Excerpt: "Both plans put your product in front of the same community. The differences are timing, extras and categories.",
		Markdown: `## The short answer

If you can wait six to eight weeks and can add a small badge to your homepage, **launch for free**. If you
have a date to hit, such as a conference or a funding announcement, a paid launch lets you pick the week.

## What is the same

- The same listing page, search ranking and category pages.
- The same weekly community ranking. Paying does not buy votes, and awards follow votes only.

## What differs

| | Free | Paid |
|---|---|---|
| Launch week | queued 6-8 weeks out | now or a week you choose |
| Badge required | yes, on your homepage | no |
| Extra categories | no | up to 3 more |
| Story, milestones, media | no | yes |

## Extras

Paid listings can add extras such as a featured spot or a place on the [billboard](/blog/how-the-billboard-works),
which is a **paid ranking** and always labelled as such.`,
		FAQs: faqs("Does a paid launch get more votes?", "No. Votes come only from people on the site, and the weekly ranking and awards follow votes only.",
			"Can I move from free to paid later?", "Yes. A paid launch order replaces your place in the free queue.")},
	{Slug: "how-the-billboard-works", Title: "The billboard is a PAID ranking. Here is how it works", Author: "Mara Lindqvist", DaysAgo: 19,
		Tags:    []string{"billboard", "paid", "rankings"},
		Excerpt: "The billboard orders listings by money contributed. It is paid, it says so everywhere, and it never mixes with votes.",
		Markdown: `## Three rankings, kept apart

Launchdir keeps three rankings separate, on purpose:

1. **Community votes**, weekly and all-time, from people on the site.
2. **The billboard**, a **PAID** ranking by money contributed.
3. **Domain Rating**, from a third-party SEO provider.

## How the billboard works

Owners contribute any amount above a minimum. Listings are ordered by the total contributed. That is all:
there is no hidden score, and the billboard never changes a listing's votes, its place in search or
its chance of an award.

## Why we label it everywhere

A ranking you can buy is useful (it is honest advertising) but only if nobody mistakes it for a
community verdict. So every billboard item in the API, the MCP tools and the website carries a
*paid* flag and a note. If you build on our API, please show that label too.

## Is it worth it?

It can be, for visibility during a campaign. Read [Domain Rating, explained](/blog/domain-rating-explained)
before deciding what kind of visibility you need.`,
		FAQs: faqs("Does billboard money affect votes or awards?", "No. Awards follow community votes only, and the billboard is shown as a separate, paid ranking.",
			"Is there a minimum contribution?", "Yes, the product billboard_min sets it; you may contribute more.",
			"Can I get a refund?", "Contributions are final once the placement is shown; contact support for mistakes.")},
	{Slug: "badges-on-your-website", Title: "Badges: show your launch on your website", Author: "Priya Natarajan", DaysAgo: 27,
		Tags:    []string{"badges", "guide"},
		Excerpt: "Five badges, five shapes, light, dark and auto modes, three sizes, and one rule: the badge links to your listing.",
		Markdown: `## Which badges exist

- **Listed on**: every public listing may show it.
- **Launched on**: once your listing is live.
- **Featured on**: for featured listings.
- **Verified on**: once you proved control of your domain. Verified is not paid.
- **Launch of the Week**: for the weekly top three by community votes.

## Styles

Each badge comes in the shapes *standard*, *outline*, *pill*, *banner* and *square*, in *light*, *dark*
or *auto* mode (auto follows the visitor's colour scheme), and in sizes *s*, *m* and *l*.

## Embedding

Copy the HTML from your listing's badges section. It is a link to your listing page with an SVG image:

` + "```html" + `
<a href="https://launchdir.example/listings/your-product"><img src="https://launchdir.example/badges/your-product/launched.svg" alt="Launched on Launchdir"></a>
` + "```" + `

For the free plan, the service looks for that **link** on your homepage; the exact markup does not matter.
See [free or paid](/blog/free-vs-paid-launch) for what else the free plan involves.`,
		FAQs: faqs("Why does the free plan need a badge?", "The badge is how free launches support the directory; the service checks for the link to your listing before going live.",
			"Can I restyle the badge?", "Pick any shape, mode and size offered; the SVGs are served by the site so they stay crisp.")},
	{Slug: "why-directories-still-matter", Title: "Why product directories still matter", Author: "Tomás Ferreira", DaysAgo: 36,
		Tags:    []string{"directories", "marketing"},
		Excerpt: "Search and AI assistants both need structured, honest facts about products. A good directory is where those facts live.",
		Markdown: `## The case against

"Nobody browses directories any more." True, fewer people scroll lists for fun. But that was never the
main value of a directory.

## The case for

A directory is a **structured record** of products: category, pricing, stage, country, founders and what
the product does, in the same shape for every listing. That structure is what lets you:

- compare two products on the same attributes;
- ask an AI assistant "which note-taking apps work offline?" and get an answer grounded in facts;
- find a product by what it does, even with a typo in the query.

## Honest blanks

The most useful thing a directory can do is to say *what it does not know*. Our listings name the facts a
company's website did not state, instead of filling them with guesses.

## Where AI fits

Assistants connected to our [MCP server](/blog/using-launchdir-with-ai-assistants) read the same records
as the website. Good data in, good answers out.`,
		FAQs: faqs("Do directory links help SEO?", "A listing page links to your site; the effect on search depends on many factors and is not guaranteed.",
			"How do you keep listings accurate?", "Profiles are drafted from the company's own website with evidence quotes, and owners can correct them.")},
	{Slug: "writing-a-tagline", Title: "Writing a tagline people remember", Author: "Priya Natarajan", DaysAgo: 45,
		Tags:    []string{"launching", "copywriting"},
		Excerpt: "Say what it is, who it is for and why it is different, in under ten words if you can.",
		Markdown: `## The formula

A good tagline answers three questions: **what is it**, **who is it for**, and **why this one**. For example:

> Notewise: the note-taking app for researchers and writers.

It names the category (note-taking app), the audience, and leaves the "why" to the first line of the
description.

## Common mistakes

1. Abstract promises: "Unlock your potential" could sell anything.
2. Jargon only insiders search for.
3. Superlatives without evidence.

## Test it

Show the tagline to someone outside your field for five seconds. If they cannot say what the product
does, start again. Then check search: people type the category name, so it belongs in your tagline. Our
[launch guide](/blog/how-to-launch-on-launchdir) shows where the tagline appears.`,
		FAQs: faqs("How long can a tagline be?", "Up to 200 characters on an own listing, but shorter taglines are easier to remember.",
			"Should the tagline contain keywords?", "Include the category name people search for, such as 'note-taking app' or 'CRM'.")},
	{Slug: "launch-week-checklist", Title: "A launch-week checklist", Author: "Mara Lindqvist", DaysAgo: 53,
		Tags:    []string{"launching", "checklist"},
		Excerpt: "What to prepare before Monday, what to do each day, and what to do after Sunday.",
		Markdown: `## Before Monday

- [ ] Listing reviewed: tagline, description, categories, FAQs.
- [ ] Founders added, with a short bio each.
- [ ] A post ready for your newsletter and social accounts.
- [ ] The badge on your homepage (required for the free plan).

## During the week

1. **Monday**: announce the launch to people who already know you.
2. **Tuesday to Thursday**: answer every comment and question; post an update about what you learned.
3. **Friday to Sunday**: thank the people who tried the product.

Votes count for the weekly ranking only during your launch week, Monday 00:00 to Sunday 24:00 UTC.

## After Sunday

Check the [awards](/awards), add a milestone, and keep posting updates. A listing keeps collecting
views and follows long after its week.`,
		FAQs: faqs("Can I ask people to vote?", "You may tell people about your launch. Votes come only from people on the site and buying or trading votes is not allowed.",
			"When are awards decided?", "After the week ends, from the community votes cast during that week.")},
	{Slug: "domain-rating-explained", Title: "Domain Rating, explained", Author: "Tomás Ferreira", DaysAgo: 62,
		Tags:    []string{"rankings", "seo"},
		Excerpt: "What the number means, where it comes from, and why it is a separate board.",
		Markdown: `## What it is

Domain Rating (DR) is a score from 0 to 100 published by a **third-party SEO provider**. It estimates the
strength of a website's backlink profile, on a logarithmic scale: going from 70 to 80 is much harder than
from 10 to 20.

## What it is not

- Not a measure of product quality.
- Not a Google ranking factor.
- Not related to community votes or the [paid billboard](/blog/how-the-billboard-works).

## How we show it

Each listing shows its latest DR with a **trend** (up, down or flat) over the monthly history we hold,
and the domain-rating leaderboard ranks live listings by the latest reading.`,
		FAQs: faqs("How often is Domain Rating updated?", "We record a reading about once a month.",
			"Can I raise my Domain Rating?", "Earning links from relevant, reputable sites raises it over time; there is no shortcut on this site.")},
	{Slug: "using-launchdir-with-ai-assistants", Title: "Ask your AI assistant: Launchdir over MCP", Author: "Priya Natarajan", DaysAgo: 71,
		Tags:    []string{"mcp", "api", "ai"},
		Excerpt: "Connect any MCP client to /mcp and ask what launched this week, search with typos, or compare two products.",
		Markdown: `## One catalog, two doors

Every public operation of the REST API under ` + "`/v1`" + ` is also a tool of our MCP server at ` + "`/mcp`" + `,
with the same name, inputs and answers.

## Try these questions

- "What launched this week?" uses ` + "`get_launch_week`" + `.
- "Find me a notetakng app" uses ` + "`search_listings`" + `, which tolerates one typo per word.
- "Compare Notewise and Jotstack" uses ` + "`compare_listings`" + `.

## Connecting

Add the server URL to your client as a *Streamable HTTP* server. Public tools need no sign-in. See the
[API docs](/docs) for the OpenAPI file if you prefer REST.`,
		FAQs: faqs("Which MCP protocol versions are supported?", "2026-07-28 and the initialize-based versions 2025-03-26 to 2025-11-25.",
			"Can an assistant vote?", "No. There is no voting through the API or MCP; votes come only from people on the site.")},
	{Slug: "how-launch-of-the-week-is-decided", Title: "How Launch of the Week is decided", Author: "Mara Lindqvist", DaysAgo: 80,
		Tags:    []string{"awards", "rankings"},
		Excerpt: "Three awards each week, decided by the community votes a launch received during its week. Nothing else.",
		Markdown: `## The rule

Each week, the three live launches with the most community votes **cast during that week** win Launch of the
Week #1, #2 and #3. Ties go to the listing with more all-time votes, then by name.

## What does not count

- Votes cast after the week ended.
- Billboard money, featured placements or plan.
- Domain Rating or revenue.

## After the award

Winners get the *Launch of the Week* badge in every style, and the award appears on the listing and in the
[awards list](/awards), newest week first.`,
		FAQs: faqs("Can a listing win twice?", "A listing launches in one week, so it can win at most one weekly award per launch.",
			"Are awards ever changed?", "Only if votes are found to be fraudulent and removed.")},
}

// Question is a founder interview question.
type Question struct{ Topic, Question string }

// questions are the founder interview questions, in order.
var questions = []Question{
	{"origin", "What problem made you start this company?"},
	{"origin", "What were you doing before you founded it?"},
	{"product", "Who is your product for, and who is it not for?"},
	{"product", "What is one feature you decided not to build, and why?"},
	{"customers", "How did you find your first ten customers?"},
	{"customers", "What do customers say when they recommend you?"},
	{"growth", "Which channel brings you the most users today?"},
	{"growth", "What growth experiment failed, and what did you learn?"},
	{"team", "How big is the team, and how do you work together?"},
	{"team", "What do you look for when you hire?"},
	{"money", "Are you bootstrapped or funded, and why?"},
	{"money", "How did you choose your pricing?"},
	{"lessons", "What would you tell yourself on day one?"},
	{"future", "What are you working on next?"},
}
