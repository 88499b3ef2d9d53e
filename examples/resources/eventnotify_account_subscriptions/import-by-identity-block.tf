# Terraform 1.12 and later, OpenTofu 1.12 and later: import with a block that
# names the resource's identity (its account) instead of an id string.
import {
  to = eventnotify_account_subscriptions.all
  identity = {
    account_id = "my-account-id"
  }
}
