# Step 1 of adopting with generated configuration (Terraform 1.5+):
# render one import block per existing subscription.
data "eventnotify_subscriptions" "existing" {}

output "import_blocks" {
  value = join("", [
    for s in data.eventnotify_subscriptions.existing.subscriptions : <<-EOT
      import {
        to = eventnotify_subscription.${replace(lower(s.event_name), "/[^a-z0-9]+/", "_")}_${substr(s.id, 0, 8)}
        id = "${s.id}"
      }
    EOT
  ])
}
