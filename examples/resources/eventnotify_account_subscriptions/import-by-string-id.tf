# Terraform 1.5 and later: import with a block, then `terraform plan
# -generate-config-out=generated.tf` writes the configuration, keyed by
# subscription id.
import {
  to = eventnotify_account_subscriptions.all
  id = "my-account-id"
}
