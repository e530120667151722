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
			Summary: "Describes this directory: purpose, listing and category counts, stage slugs for search filters, how launch weeks and the three rankings work, API and docs URLs. Call it first.",
		}), (*domain.Service).GetSiteInfo),

		Op(publicRead(Spec{
			Name: "search_listings", Path: "/listings", Tag: "Listings", Title: "Search listings",
			Summary: "Searches listings and returns a page of summaries. q is typo-tolerant full text; filter by category, stage, country, pricing_model, domain, status; sort=relevance needs q. Then get_listing for a full profile.",
		}), (*domain.Service).SearchListings),

		Op(publicRead(Spec{
			Name: "get_listing", Path: "/listings/{slug}", Tag: "Listings", Title: "Get a listing",
			Summary: "Full public profile of a listing by slug: description, pricing, founders, FAQs, reviews, rating, Domain Rating, awards. Facts in not_found_on_website are unknown: never guess them. paid_placement is the billboard, a PAID ranking: always say it is paid.",
		}), (*domain.Service).GetListing),

		Op(publicRead(Spec{
			Name: "get_alternatives", Path: "/listings/{slug}/alternatives", Tag: "Listings", Title: "Alternatives to a listing",
			Summary: "Alternatives to a listing (\"what else is like X?\"): owner-approved ones first, then live listings of its primary category.",
		}), (*domain.Service).GetAlternatives),

		Op(publicRead(Spec{
			Name: "compare_listings", Path: "/compare", Tag: "Listings", Title: "Compare two listings", NotFound: true,
			Summary: "Compares listings a and b side by side: general facts and their categories' comparison attributes. A row applies to the listings in its applies_to: their empty cell means not stated (say so, never guess); the other's means does not apply.",
		}), (*domain.Service).CompareListings),

		Op(publicRead(Spec{
			Name: "list_categories", Path: "/categories", Tag: "Categories", Title: "List categories",
			Summary: "The category tree with live listing counts (subcategories included). Use a slug as search_listings' category or with get_category.",
		}), (*domain.Service).ListCategories),

		Op(publicRead(Spec{
			Name: "get_category", Path: "/categories/{slug}", Tag: "Categories", Title: "Get a category",
			Summary: "One category (description, FAQs, subcategories, comparison attributes) and a page of its live listings, most voted first.",
		}), (*domain.Service).GetCategory),

		Op(publicRead(Spec{
			Name: "get_launch_week", Path: "/launches/weeks/{week}", Tag: "Launches", Title: "Get a launch week",
			Summary: "Launches of one week (Monday-Sunday UTC) for \"what launched this week?\": week is this, next, last or a date. Live launches ranked by that week's community votes; current and future weeks add scheduled ones.",
		}), (*domain.Service).GetLaunchWeek),

		Op(publicRead(Spec{
			Name: "list_launches", Path: "/launches", Tag: "Launches", Title: "Launch feeds",
			Summary: "A page of one launch feed, by section (trending ranks by time-decayed votes).",
		}), (*domain.Service).ListLaunches),

		Op(publicRead(Spec{
			Name: "get_leaderboard", Path: "/leaderboards/{board}", Tag: "Leaderboards", Title: "Get a leaderboard",
			Summary: "A page of a leaderboard (rank, listing, metric): community-weekly, community-all-time, billboard (a PAID ranking by money: always say it is paid), domain-rating (third-party SEO) or revenue.",
		}), (*domain.Service).GetLeaderboard),

		Op(publicRead(Spec{
			Name: "list_founders", Path: "/founders", Tag: "Founders", Title: "List founders",
			Summary: "Founders of live listings, optionally by q (part of the name) and country. Then get_founder.",
		}), (*domain.Service).ListFounders),

		Op(publicRead(Spec{
			Name: "get_founder", Path: "/founders/{slug}", Tag: "Founders", Title: "Get a founder",
			Summary: "A founder's public profile: bio, socials, companies listed here, published stories.",
		}), (*domain.Service).GetFounder),

		Op(publicRead(Spec{
			Name: "list_blog_posts", Path: "/blog", Tag: "Blog", Title: "List blog posts",
			Summary: "The blog's posts, newest first, or those matching q. Then get_blog_post for the text.",
		}), (*domain.Service).ListBlogPosts),

		Op(publicRead(Spec{
			Name: "get_blog_post", Path: "/blog/{slug}", Tag: "Blog", Title: "Get a blog post",
			Summary: "Returns one blog post by slug, with its full Markdown text and FAQs.",
		}), (*domain.Service).GetBlogPost),

		Op(publicRead(Spec{
			Name: "list_awards", Path: "/awards", Tag: "Awards", Title: "List awards", NotFound: true,
			Summary: "Launch of the Week awards (top 3 each week by community votes), newest first; listing=slug for one listing's awards.",
		}), (*domain.Service).ListAwards),

		Op(publicRead(Spec{
			Name: "get_badges", Path: "/listings/{slug}/badges", Tag: "Badges", Title: "Get a listing's badges",
			Summary: "Badges a listing may show on its site, with HTML embed code and SVG URLs in the chosen shape, mode and size; each links to the listing's page.",
		}), (*domain.Service).GetBadges),

		Op(publicRead(Spec{
			Name: "list_interview_questions", Path: "/interview-questions", Tag: "Founders", Title: "Founder interview questions",
			Summary: "The founder interview questions with their ids, for answer_interview.",
		}), (*domain.Service).ListInterviewQuestions),
	}
}
