# Terraform 1.7 and later, OpenTofu 1.10 and later: in place of the resource
# block, Terraform forgets the resource and leaves the account's
# subscriptions as they are. Delete the removed block after the apply.
removed {
  from = eventnotify_account_subscriptions.production

  lifecycle {
    destroy = false
  }
}
