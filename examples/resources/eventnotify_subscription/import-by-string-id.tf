# Terraform 1.5 and later: import with a block, then `terraform plan
# -generate-config-out=generated.tf` writes the resource's configuration.
import {
  to = eventnotify_subscription.example
  id = "3fa85f64-5717-4562-b3fc-2c963f66afa6" # or "<account_id>/<subscription_id>"
}
