// Package mutating is the MutatingAdmissionWebhook plugin: it calls the
// webhooks of every MutatingWebhookConfiguration (configurations in name
// order, webhooks in their order) that see the request, applies each
// one's JSON Patch before calling the next, and calls the IfNeeded ones
// once more when a later webhook changed the object after them.
package mutating
