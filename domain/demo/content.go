package demo

import "github.com/launchdir/launchdir/domain"

// Attr is a comparison attribute of a demo category with the values
// listings of that category may state.
type Attr struct {
	Key, Label string
	Values     []string
}

// Category is one category of the demo tree. Subcategories also carry the
// material listings are written from.
type Category struct {
	Slug, Name, Parent, Description string
	FAQs                            []domain.FAQ
	Attrs                           []Attr
	Noun                            string   // what a listing of this category is ("note-taking app")
	Names                           []string // product names, unique across the tree
	Taglines                        []string // templates; %s is an audience
	Audiences                       []string
	Problems                        []string // sentences about the problem solved
	Features                        []string
	Keywords                        []string
}

func faqs(qa ...string) []domain.FAQ {
	out := make([]domain.FAQ, 0, len(qa)/2)
	for i := 0; i+1 < len(qa); i += 2 {
		out = append(out, domain.FAQ{Question: qa[i], Answer: qa[i+1]})
	}
	return out
}

func attr(key, label string, values ...string) Attr {
	return Attr{Key: key, Label: label, Values: values}
}

// demoTopCategories are the eight top-level categories.
var demoTopCategories = []Category{
	{Slug: "ai-tools", Name: "AI Tools", Description: "Products built around machine-learning models: assistants that write, draw, transcribe and carry out tasks on your behalf.",
		FAQs: faqs("What counts as an AI tool here?", "A product whose main value comes from a machine-learning model, such as text generation, image generation, speech recognition or an agent that acts for you.",
			"Do AI tools listed here train on my data?", "Each listing states its own data policy where the company's website does; when the site says nothing, the listing leaves it blank rather than guessing.",
			"Can I compare two AI tools?", "Yes. Open compare for any two listings; both are shown side by side on the attributes of their categories."),
		Attrs: []Attr{attr("model_provider", "Model provider", "Own models", "OpenAI", "Anthropic", "Open-weight models", "Several providers"),
			attr("data_training", "Trains on customer data", "No", "Opt-in only", "Yes, unless you opt out"),
			attr("api_access", "API access", "Yes", "No", "Enterprise plan only")}},
	{Slug: "productivity", Name: "Productivity", Description: "Tools for getting work done: notes, tasks, calendars and time tracking for individuals and teams.",
		FAQs: faqs("Which productivity tools work offline?", "Compare listings on the 'Works offline' attribute where a category has it; a blank cell means the product's website does not say.",
			"Are there free productivity tools?", "Many listings here have a free plan. Search with pricing_model=free or freemium to find them.",
			"How are productivity tools ranked?", "By community votes from people on the site. The billboard is a separate, paid ranking."),
		Attrs: []Attr{attr("platforms", "Platforms", "Web", "Web, desktop and mobile", "macOS and iOS"),
			attr("free_plan", "Free plan", "Yes", "No"),
			attr("team_features", "Team features", "Yes", "No")}},
	{Slug: "developer-tools", Name: "Developer Tools", Description: "Software for people who build software: APIs, databases, monitoring and testing.",
		FAQs: faqs("Are open-source developer tools listed?", "Yes. Filter search by pricing_model=open-source to see them; many also offer a hosted plan.",
			"Can I self-host these tools?", "Listings state self-hosting in the 'Self-hosted option' attribute where their category has it.",
			"How do I get my developer tool listed?", "Submit its website URL; the profile is drafted from your own site and you review it before it goes live."),
		Attrs: []Attr{attr("open_source", "Open source", "Yes", "No", "Core only"),
			attr("self_hosted", "Self-hosted option", "Yes", "No"),
			attr("sdk_languages", "SDK languages", "Go, Python, TypeScript", "TypeScript only", "Python, Java, Ruby")}},
	{Slug: "marketing", Name: "Marketing", Description: "Tools that bring people to a product and keep them coming back: SEO, email, social media and analytics.",
		FAQs: faqs("Which marketing tools suit a solo founder?", "Look for listings with a free plan or low entry price and a 'Launched' or 'Growing' stage; the compare view shows the limits side by side.",
			"Do these tools respect privacy rules?", "Where a website states GDPR compliance or cookie-free tracking, the listing records it; otherwise the cell is left blank.",
			"Is a higher Domain Rating better?", "Domain Rating measures a website's backlink profile from a third-party SEO provider. It is not a community or quality ranking."),
		Attrs: []Attr{attr("gdpr", "GDPR compliant", "Yes", "No", "EU data residency on request"),
			attr("integrations", "Integrations", "Zapier, Slack", "Shopify, WordPress", "HubSpot, Salesforce"),
			attr("free_trial", "Free trial", "7 days", "14 days", "30 days", "No trial")}},
	{Slug: "design", Name: "Design", Description: "Tools for making things look right: interface design, video editing and design assets.",
		FAQs: faqs("Do design tools here work in the browser?", "Many do. The 'Platforms' attribute of each design category says where a product runs, when its website states it.",
			"Can I use assets commercially?", "Licences differ; the 'Commercial licence' attribute of the icons and assets category records what each website says."),
		Attrs: []Attr{attr("platforms", "Platforms", "Browser", "macOS", "Windows and macOS"),
			attr("collaboration", "Real-time collaboration", "Yes", "No"),
			attr("export_formats", "Export formats", "PNG, SVG, PDF", "MP4, MOV", "Figma, Sketch")}},
	{Slug: "finance", Name: "Finance", Description: "Software for money matters of small businesses and individuals: invoicing, accounting and expenses.",
		FAQs: faqs("Is my financial data safe with these tools?", "Each listing states security facts only when the company's website does. Check the 'Bank-grade encryption' or similar attributes, and read the provider's own policy.",
			"Do finance tools here handle VAT and sales tax?", "Where a category has a tax attribute it shows what each product supports; a blank cell means the website does not say.",
			"Can I export my data?", "Most tools offer CSV export; the compare view shows export options where stated."),
		Attrs: []Attr{attr("currencies", "Multi-currency", "Yes", "No"),
			attr("bank_sync", "Bank sync", "Yes", "No", "Europe and UK only"),
			attr("tax_support", "Tax support", "VAT and sales tax", "US sales tax only", "VAT only")}},
	{Slug: "sales-support", Name: "Sales & Support", Description: "Tools for finding customers and looking after them: CRMs, help desks and live chat.",
		FAQs: faqs("What is the difference between a help desk and live chat?", "A help desk manages tickets from email and forms over days; live chat talks to website visitors in real time. Many products do both.",
			"Which CRMs are built for small teams?", "Filter the CRM category by stage and pricing; the compare view shows per-seat prices side by side where stated."),
		Attrs: []Attr{attr("seats_free", "Free seats", "1", "3", "Unlimited", "None"),
			attr("channels", "Channels", "Email, chat", "Email, chat, phone", "Email only"),
			attr("ai_features", "AI features", "Yes", "No")}},
	{Slug: "education", Name: "Education", Description: "Learning products: course platforms, language learning and study tools.",
		FAQs: faqs("Are there free learning tools?", "Yes; several listings are free or open source. Search with pricing_model=free to see them.",
			"Can teachers use these tools with a class?", "The 'Classroom features' attribute says whether a product supports groups of learners, where the website states it.",
			"How are education listings reviewed?", "Community reviews are shown as a rating; reviews flagged as not genuine are left out of it."),
		Attrs: []Attr{attr("classroom", "Classroom features", "Yes", "No"),
			attr("offline", "Works offline", "Yes", "No"),
			attr("certificates", "Certificates", "Yes", "No")}},
}
