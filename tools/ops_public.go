package tools

import "github.com/launchdir/launchdir/domain"

// publicRead is the common Spec part of the public read operations: no scope,
// read-only, idempotent, closed world (they read only this directory).
func publicRead(s Spec) Spec {
	s.Method, s.ReadOnly, s.IdempotentHint = "GET", true, true
	return s
}

// PublicOperations are the 17 public read operations of the spec. Anyone may
// call them without signing in.
func PublicOperations() []Operation {
	return []Operation{
		Op(publicRead(Spec{
			Name: "get_site_info", Path: "/site", Tag: "Site", Title: "Site information",
			Summary: "Describes this launch directory: its name and purpose, live and upcoming listing and category counts, " +
				"the business stage slugs usable as search filters, how launch weeks and the separate ranking systems work, " +
				"and where the REST API, OpenAPI document, docs and MCP server are. Call it first to learn what the service offers.",
		}), (*domain.Service).GetSiteInfo),

		Op(publicRead(Spec{
			Name: "search_listings", Path: "/listings", Tag: "Listings", Title: "Search listings",
			Summary: "Searches the directory's product listings and returns one page of listing summaries (name, tagline, url, page_url, " +
				"category, votes, ...). q is full-text over name, tagline, description and keywords and tolerates one typo per word. " +
				"Filter by category (subcategories included), stage, country, pricing_model, domain or status (live by default, or upcoming). " +
				"Sort by relevance (needs q), newest, votes, trending, most_viewed or most_followed. Use get_listing for a full profile.",
		}), (*domain.Service).SearchListings),

		Op(publicRead(Spec{
			Name: "get_listing", Path: "/listings/{slug}", Tag: "Listings", Title: "Get a listing",
			Summary: "Returns the full public profile of one listing by slug: description, features, pricing, categories, founders, FAQs, " +
				"socials, latest updates, community rating (counted reviews only; null when there are none), the latest 10 counted " +
				"reviews with the owner's answers, Domain Rating with trend, awards and links. Reviews are written by people on the " +
				"site, never through the API. " +
				"Paid-only sections (story, milestones, media) appear only when unlocked. not_found_on_website names facts the company's " +
				"own site did not state; they are left blank on purpose, never guess them. paid_placement is money paid into the " +
				"billboard, a PAID ranking: always present it as paid, never as a community number. 404 when no such listing exists.",
		}), (*domain.Service).GetListing),

		Op(publicRead(Spec{
			Name: "get_alternatives", Path: "/listings/{slug}/alternatives", Tag: "Listings", Title: "Alternatives to a listing",
			Summary: "Lists alternatives to a listing: the ones its owner approved first (approved=true), then other live listings " +
				"in the same primary category. Use it to answer \"what else is like X?\". 404 when no such listing exists.",
		}), (*domain.Service).GetAlternatives),

		Op(publicRead(Spec{
			Name: "compare_listings", Path: "/compare", Tag: "Listings", Title: "Compare two listings", NotFound: true,
			Summary: "Puts two listings (slugs a and b) side by side: general facts (pricing, stage, country, founded, votes, rating, " +
				"Domain Rating) and the comparison attributes of their primary categories. An empty cell means that listing does " +
				"not state the fact; say so rather than guessing. 404 when either listing does not exist.",
		}), (*domain.Service).CompareListings),

		Op(publicRead(Spec{
			Name: "list_categories", Path: "/categories", Tag: "Categories", Title: "List categories",
			Summary: "Returns the category tree (top-level categories with their subcategories) with live listing counts that " +
				"include subcategories. Set include_empty=false to hide categories without live listings. Use the slugs as the " +
				"category filter of search_listings or with get_category.",
		}), (*domain.Service).ListCategories),

		Op(publicRead(Spec{
			Name: "get_category", Path: "/categories/{slug}", Tag: "Categories", Title: "Get a category",
			Summary: "Returns one category (description, FAQs, parent, subcategories, comparison attributes) and one page of its " +
				"live listings, subcategories included, most voted first. 404 when no such category exists.",
		}), (*domain.Service).GetCategory),

		Op(publicRead(Spec{
			Name: "get_launch_week", Path: "/launches/weeks/{week}", Tag: "Launches", Title: "Get a launch week",
			Summary: "Returns the launches of one week (Monday 00:00 to Sunday 24:00 UTC): week is this, next, last or any date " +
				"YYYY-MM-DD, which is snapped to its Monday. Live launches are ranked by the community votes received that week; " +
				"current and future weeks also list scheduled launches. Use it for \"what launched this week?\". " +
				"404 for weeks before the site's first launch week or more than a year ahead.",
		}), (*domain.Service).GetLaunchWeek),

		Op(publicRead(Spec{
			Name: "list_launches", Path: "/launches", Tag: "Launches", Title: "Launch feeds",
			Summary: "Returns one page of a launch feed: today, this-week (default), trending (time-decayed votes), most-voted, " +
				"recent, most-viewed, most-followed or upcoming (scheduled launches).",
		}), (*domain.Service).ListLaunches),

		Op(publicRead(Spec{
			Name: "get_leaderboard", Path: "/leaderboards/{board}", Tag: "Leaderboards", Title: "Get a leaderboard",
			Summary: "Returns one page of a leaderboard; each item has rank, listing and metric. Boards: community-weekly " +
				"(votes received in one week; week = this, last or a date), community-all-time (all-time votes), billboard " +
				"(a PAID ranking by money contributed: always present it as paid, never as a quality or community ranking), " +
				"domain-rating (third-party SEO Domain Rating) and revenue (monthly revenue reported by founders).",
		}), (*domain.Service).GetLeaderboard),

		Op(publicRead(Spec{
			Name: "list_founders", Path: "/founders", Tag: "Founders", Title: "List founders",
			Summary: "Lists founders of live listings by name, optionally matching q (part of the name) and country. " +
				"Use get_founder for a bio, socials, companies and stories.",
		}), (*domain.Service).ListFounders),

		Op(publicRead(Spec{
			Name: "get_founder", Path: "/founders/{slug}", Tag: "Founders", Title: "Get a founder",
			Summary: "Returns a founder's public profile: bio, socials, the companies they have listed here and their published " +
				"founder stories. 404 when no such founder exists.",
		}), (*domain.Service).GetFounder),

		Op(publicRead(Spec{
			Name: "list_blog_posts", Path: "/blog", Tag: "Blog", Title: "List blog posts",
			Summary: "Lists the directory's blog posts, newest first, or those matching q (title, excerpt, text and tags). " +
				"Use get_blog_post for the full text.",
		}), (*domain.Service).ListBlogPosts),

		Op(publicRead(Spec{
			Name: "get_blog_post", Path: "/blog/{slug}", Tag: "Blog", Title: "Get a blog post",
			Summary: "Returns one blog post with its full Markdown text and FAQs. 404 when no such post exists.",
		}), (*domain.Service).GetBlogPost),

		Op(publicRead(Spec{
			Name: "list_awards", Path: "/awards", Tag: "Awards", Title: "List awards", NotFound: true,
			Summary: "Lists Launch of the Week awards (#1, #2 and #3 of each week, decided by community votes only), newest week " +
				"first, each with its winning listing. Set listing to a slug for the awards one listing won.",
		}), (*domain.Service).ListAwards),

		Op(publicRead(Spec{
			Name: "get_badges", Path: "/listings/{slug}/badges", Tag: "Badges", Title: "Get a listing's badges",
			Summary: "Returns the badges a listing may show on its website (listed on, launched on, featured, verified, launch of " +
				"the week) with ready-to-paste HTML embed code and SVG image URLs in the chosen shape, mode and size, plus every " +
				"other style. Every badge links to the listing's page here. 404 when no such listing exists.",
		}), (*domain.Service).GetBadges),

		Op(publicRead(Spec{
			Name: "list_interview_questions", Path: "/interview-questions", Tag: "Founders", Title: "Founder interview questions",
			Summary: "Lists the founder interview questions, in order, with their ids; founders answer them to publish an interview.",
		}), (*domain.Service).ListInterviewQuestions),
	}
}
