# Terraform 1.12 and later, OpenTofu 1.12 and later: import with a block that
# names the subscription's identity, its account and its id.
import {
  to = eventnotify_subscription.example
  identity = {
    account_id = "my-account-id"
    id         = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
  }
}
