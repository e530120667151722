package domain

import (
	"context"
	"strings"
	"time"
)

// FounderSummary is a founder in lists.
type FounderSummary struct {
	Slug      string `json:"slug"`
	Name      string `json:"name"`
	Title     string `json:"title,omitempty"`
	Country   string `json:"country,omitempty"`
	AvatarURL string `json:"avatar_url,omitempty"`
	Companies int    `json:"companies" jsonschema_description:"Live listings this founder is on."`
	PageURL   string `json:"page_url"`
}

// FounderCompany is a listing a founder is on, with their role.
type FounderCompany struct {
	Role    string         `json:"role,omitempty"`
	Listing ListingSummary `json:"listing"`
}

// FounderStory is a published founder story.
type FounderStory struct {
	Listing string `json:"listing" jsonschema_description:"Slug of the listing the story belongs to."`
	Story
}

// Founder is a founder's public profile.
type Founder struct {
	FounderSummary
	Bio       string           `json:"bio"`
	City      string           `json:"city,omitempty"`
	Socials   Socials          `json:"socials"`
	Companies []FounderCompany `json:"companies_listed" jsonschema_description:"Live listings of this founder on this site."`
	Stories   []FounderStory   `json:"stories" jsonschema_description:"Published founder stories."`
}

// ListFoundersInput is the input of list_founders (GET /founders).
type ListFoundersInput struct {
	Q       string `json:"q,omitempty" jsonschema:"maxLength=120" jsonschema_description:"Part of the founder's name."`
	Country string `json:"country,omitempty" jsonschema:"pattern=^[A-Za-z]{2}$" jsonschema_description:"ISO 3166 alpha-2 country code."`
	Pagination
}

// FounderQuery is a normalised founder search for the Store.
type FounderQuery struct {
	Q       string
	Country string
	Offset  int
	Limit   int
}

// ListFoundersOutput is one page of founders of live listings.
type ListFoundersOutput struct {
	Items []FounderSummary `json:"items"`
	Page
}

// ListFounders lists founders of live listings, by name.
func (s *Service) ListFounders(ctx context.Context, in ListFoundersInput) (ListFoundersOutput, error) {
	page, perPage := in.Norm()
	items, total, err := s.Store.Founders(ctx, FounderQuery{
		Q: strings.TrimSpace(in.Q), Country: strings.ToUpper(in.Country), Offset: in.Offset(), Limit: perPage,
	})
	if err != nil {
		return ListFoundersOutput{}, err
	}
	return ListFoundersOutput{Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}

// FounderSlugInput names a founder by slug.
type FounderSlugInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Founder slug."`
}

// GetFounder returns a founder's public profile.
func (s *Service) GetFounder(ctx context.Context, in FounderSlugInput) (*Founder, error) {
	return s.Store.Founder(ctx, in.Slug)
}

// BlogPostSummary is a blog post in lists.
type BlogPostSummary struct {
	Slug        string    `json:"slug"`
	Title       string    `json:"title"`
	Excerpt     string    `json:"excerpt"`
	Author      string    `json:"author"`
	Tags        []string  `json:"tags"`
	PublishedAt time.Time `json:"published_at"`
	PageURL     string    `json:"page_url"`
}

// BlogPost is a full blog post.
type BlogPost struct {
	BlogPostSummary
	Markdown string `json:"markdown" jsonschema_description:"Full text in Markdown."`
	FAQs     []FAQ  `json:"faqs"`
}

// ListBlogPostsInput is the input of list_blog_posts (GET /blog).
type ListBlogPostsInput struct {
	Q string `json:"q,omitempty" jsonschema:"maxLength=200" jsonschema_description:"Words to match in title, excerpt, text and tags; without q, newest first."`
	Pagination
}

// BlogQuery is a normalised blog search for the Store.
type BlogQuery struct {
	Q      string
	Offset int
	Limit  int
}

// ListBlogPostsOutput is one page of blog posts.
type ListBlogPostsOutput struct {
	Items []BlogPostSummary `json:"items"`
	Page
}

// ListBlogPosts lists blog posts newest first, or those matching q.
func (s *Service) ListBlogPosts(ctx context.Context, in ListBlogPostsInput) (ListBlogPostsOutput, error) {
	page, perPage := in.Norm()
	items, total, err := s.Store.BlogPosts(ctx, BlogQuery{Q: strings.TrimSpace(in.Q), Offset: in.Offset(), Limit: perPage})
	if err != nil {
		return ListBlogPostsOutput{}, err
	}
	return ListBlogPostsOutput{Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}

// PostSlugInput names a blog post by slug.
type PostSlugInput struct {
	Slug string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Blog post slug."`
}

// GetBlogPost returns a blog post with its Markdown text and FAQs.
func (s *Service) GetBlogPost(ctx context.Context, in PostSlugInput) (*BlogPost, error) {
	return s.Store.BlogPost(ctx, in.Slug)
}

// InterviewQuestion is a founder interview question.
type InterviewQuestion struct {
	ID       int64  `json:"id"`
	Question string `json:"question"`
	Topic    string `json:"topic"`
	Position int    `json:"position"`
}

// Empty is the input of operations without parameters.
type Empty struct{}

// ListInterviewQuestionsOutput lists every interview question.
type ListInterviewQuestionsOutput struct {
	Items []InterviewQuestion `json:"items"`
}

// ListInterviewQuestions returns the founder interview questions in order.
func (s *Service) ListInterviewQuestions(ctx context.Context, _ Empty) (ListInterviewQuestionsOutput, error) {
	items, err := s.Store.InterviewQuestions(ctx)
	if err != nil {
		return ListInterviewQuestionsOutput{}, err
	}
	return ListInterviewQuestionsOutput{Items: nonNil(items)}, nil
}
