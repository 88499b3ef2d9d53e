# Pause the status notifications of the provider's account while a deployment
# is rolled out, and turn them back on once it is done. Changing `release`
# replaces nothing: Terraform runs the disable action, updates the deployment,
# then runs the enable action. Creating the deployment (the first apply) runs
# neither.
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

# Stands for whatever performs the deployment.
resource "terraform_data" "deployment" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.eventnotify_disable_subscriptions.pause_status]
    }
    action_trigger {
      events  = [after_update]
      actions = [action.eventnotify_enable_subscriptions.resume_status]
    }
  }
}
