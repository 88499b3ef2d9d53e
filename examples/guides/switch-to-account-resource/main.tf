# From one eventnotify_subscription per subscription to the authoritative
# eventnotify_account_subscriptions, in one plan that changes nothing on the
# service (Terraform 1.7+, OpenTofu 1.10+). This file replaces the one that
# declares eventnotify_subscription.adopted; subscriptions.tf, the literal map
# keyed by subscription id, stays.

# Forget the per-subscription resources: their subscriptions stay.
removed {
  from = eventnotify_subscription.adopted

  lifecycle {
    destroy = false
  }
}

# Take the whole account over. The import keys the map by subscription id, as
# local.subscriptions is keyed, so the plan shows no change.
import {
  to = eventnotify_account_subscriptions.all
  id = "my-account-id"
}

resource "eventnotify_account_subscriptions" "all" {
  subscriptions = local.subscriptions

  # Destroying this resource deletes every subscription of the account.
  lifecycle {
    prevent_destroy = true
  }
}
