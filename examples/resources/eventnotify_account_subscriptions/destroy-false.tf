# Terraform 1.16 and later, OpenTofu 1.12 and later. With destroy = false,
# `terraform destroy` and a replacement (a new account_id, or a resource that
# Terraform marked tainted) only remove the resource from the state: the
# account keeps its subscriptions.
#
# Deleting the block is another matter. OpenTofu records destroy = false in
# the state at each apply, and forgets the resource when its block is gone.
# Terraform does not: it destroys a resource whose block is gone, which
# deletes every subscription of the account. To stop managing the account
# with Terraform, replace the block with a removed block (below).
resource "eventnotify_account_subscriptions" "production" {
  subscriptions = {
    process_errors = {
      event_name          = "PROCESS.EXECUTION"
      destination_type    = "EVENT_STREAMS"
      log_level           = "ERROR"
      event_streams_topic = "production-events"
    }
  }

  lifecycle {
    destroy = false
  }
}
