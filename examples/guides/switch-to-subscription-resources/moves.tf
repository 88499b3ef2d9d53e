# Back from the account resource, next to step 2's main.tf (Terraform 1.7+,
# OpenTofu 1.10+). Delete this file after the apply.

# Forget the account resource. Without `destroy = false`, removing it from the
# configuration would delete every subscription of the account.
removed {
  from = eventnotify_account_subscriptions.all

  lifecycle {
    destroy = false
  }
}

import {
  for_each = local.subscriptions
  to       = eventnotify_subscription.adopted[each.key]
  id       = each.key
}
