# Back from eventnotify_account_subscriptions to one eventnotify_subscription
# per entry of subscriptions.tf (keyed by subscription id), in one plan that
# changes nothing on the service (Terraform 1.7+, OpenTofu 1.10+). main.tf is
# step 2's again, the file that declares eventnotify_subscription.adopted; this
# file goes next to it, and can be deleted after the apply.

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
