# To the account resource, in one plan that changes nothing on the service
# (Terraform 1.7+, OpenTofu 1.10+). Replaces main.tf; subscriptions.tf stays.

# Forget the per-subscription resources: their subscriptions stay.
removed {
  from = eventnotify_subscription.adopted

  lifecycle {
    destroy = false
  }
}

# The import keys the map by subscription id, as local.subscriptions is: no change.
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
