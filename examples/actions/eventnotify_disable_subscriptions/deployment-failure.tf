# Terraform 1.16 and later. Each release replaces the deployment, and its
# local-exec provisioner stands for the deployment script. The status
# notifications of the provider's account are paused before the deployment is
# rolled out (before_create) or torn down (before_destroy), and turned back on
# afterwards (after_create, after_destroy), also when the script fails.
variable "release" {
  type    = string
  default = "2024.06.1"
}

action "eventnotify_disable_subscriptions" "pause_status" {
  config {
    event_name = "ATOM.STATUS"
  }
}

action "eventnotify_enable_subscriptions" "resume_status" {
  config {
    event_name = "ATOM.STATUS"
  }
}

resource "terraform_data" "deployment" {
  triggers_replace = var.release

  provisioner "local-exec" {
    command = "echo Deploying release ${self.triggers_replace}"
  }

  lifecycle {
    action_trigger {
      events  = [before_create, before_destroy]
      actions = [action.eventnotify_disable_subscriptions.pause_status]
      # Deploy all the same, with a warning, when the pause fails.
      on_failure = continue
    }
    action_trigger {
      events  = [after_create, after_destroy]
      actions = [action.eventnotify_enable_subscriptions.resume_status]
    }
  }
}
