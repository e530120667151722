package tools

import "github.com/launchdir/launchdir/domain"

// WebhookOperations are an account's webhook endpoints and their delivery
// log (docs/webhooks.md): their own toolset, webhooks. Reads need
// account:read, changes listings:write (every event is about the account's
// drafts and listings).
func WebhookOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "list_webhooks", Method: "GET", Path: "/me/webhooks", Scope: domain.ScopeAccountRead,
			Tag: "Webhooks", Title: "My webhooks", ReadOnly: true, IdempotentHint: true,
			Summary: "Your webhook endpoints: address, event types, listings, enabled or why disabled. Secrets are never shown here.",
		}, (*domain.Service).ListWebhooks),

		Op(Spec{
			Name: "create_webhook", Method: "POST", Path: "/me/webhooks", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Webhooks", Title: "Create a webhook", OpenWorld: true,
			Summary: "Registers a public http(s) endpoint for signed event POSTs (Standard Webhooks) of the chosen types, optionally only for some of your listings. Returns the signing secret once; at most 10 per account. An unknown event type is a 400 listing the known ones.",
		}, (*domain.Service).CreateWebhook),

		Op(Spec{
			Name: "update_webhook", Method: "PATCH", Path: "/me/webhooks/{webhook_id}", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Webhooks", Title: "Edit a webhook", Destructive: true, IdempotentHint: true,
			Summary: "Changes an endpoint's url, events, listing_ids or description; enabled true turns a disabled endpoint back on. Send only what changes.",
		}, (*domain.Service).UpdateWebhook),

		Op(Spec{
			Name: "delete_webhook", Method: "DELETE", Path: "/me/webhooks/{webhook_id}", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Webhooks", Title: "Delete a webhook", Destructive: true,
			Summary: "Removes an endpoint and its delivery log; nothing more is sent to it.",
		}, (*domain.Service).DeleteWebhook),

		Op(Spec{
			Name: "rotate_webhook_secret", Method: "POST", Path: "/me/webhooks/{webhook_id}/rotate-secret", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Webhooks", Title: "Rotate a webhook secret", Destructive: true,
			Summary: "Gives an endpoint a new signing secret, returned once; the old one keeps signing beside it for 24 hours.",
		}, (*domain.Service).RotateWebhookSecret),

		Op(Spec{
			Name: "send_test_webhook", Method: "POST", Path: "/me/webhooks/{webhook_id}/test", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 202, Tag: "Webhooks", Title: "Send a test event", OpenWorld: true,
			Summary: "Queues a webhook.test event to the endpoint (also when disabled); list_webhook_deliveries shows the outcome.",
		}, (*domain.Service).SendTestWebhook),

		Op(Spec{
			Name: "list_webhook_deliveries", Method: "GET", Path: "/me/webhooks/{webhook_id}/deliveries", Scope: domain.ScopeAccountRead,
			Tag: "Webhooks", Title: "Webhook delivery log", ReadOnly: true, IdempotentHint: true,
			Summary: "An endpoint's deliveries, newest first: event id and type, pending, delivered or failed, next retry, and each attempt's time, HTTP status, duration and error.",
		}, (*domain.Service).ListWebhookDeliveries),

		Op(Spec{
			Name: "redeliver_webhook", Method: "POST", Path: "/me/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 202, Tag: "Webhooks", Title: "Redeliver a webhook event", OpenWorld: true,
			Summary: "Sends a delivered or failed event to the endpoint once more, now, with the same webhook-id; not retried if it fails.",
		}, (*domain.Service).RedeliverWebhook),
	}
}
